import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Empty, Form, Input, InputNumber, Row, Select, Space, Spin, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusinessError } from '../../../api/client';
import {
  paramCommand,
  paramHistory,
  paramHistoryExport,
  paramValues,
  readParams,
  setParams,
  type ParamCommand,
  type ParamHistoryQuery,
  type ParamRow,
} from '../../../api/parameter';
import { useAuth } from '../../../components/AuthButton';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { HISTORY_DEFAULTS, historyInitial, toHistoryFilters } from '../history/filters';
import { changeLine, diff, fieldName, initialValues, POLL_MS, PROBE_FIELDS, probeTable, validate, type FormValue } from './logic';

type Filters = { carId?: number; kind?: string; state?: string; startTime?: string; endTime?: string };

const stateColor: Record<string, string> = { sent: 'processing', acknowledged: 'success', failed: 'error', timeout: 'warning', offline: 'default' };

/** 远程标定: read and set a terminal's parameters and its probes' calibration (0x8104 / 0x8103), with the history. */
export default function ParameterPage() {
  const { t } = useTranslation();
  const [carId, setCarId] = useState<number>();
  return (
    <div data-testid="parameter-page">
      <Tabs
        destroyOnHidden
        tabBarStyle={{ paddingLeft: 16, marginBottom: 12 }}
        items={[
          { key: 'params', label: t('parameter.tabParams'), children: <ParamsTab carId={carId} setCarId={setCarId} /> },
          { key: 'history', label: t('parameter.tabHistory'), children: <HistoryTab /> },
        ]}
      />
    </div>
  );
}

function errorText(e: unknown): string {
  return e instanceof BusinessError || e instanceof Error ? e.message : String(e);
}

export function ParamsTab({ carId, setCarId }: { carId?: number; setCarId: (id?: number) => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const { modal } = App.useApp();
  const canSet = useAuth('set');
  const [form] = Form.useForm<Record<string, FormValue>>();
  const [commandId, setCommandId] = useState<number>();
  const [sendError, setSendError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const values = useQuery({
    queryKey: ['parameterValues', carId, i18n.language],
    queryFn: () => paramValues(carId!),
    enabled: !!carId,
  });
  const data = values.data;
  // a command still waiting when the page opens is followed like one sent from here
  useEffect(() => {
    if (data?.pending) setCommandId(data.pending);
  }, [data?.pending]);
  const command = useQuery({
    queryKey: ['parameterCommand', commandId, i18n.language],
    queryFn: () => paramCommand(commandId!),
    enabled: !!commandId,
    refetchInterval: (q) => (q.state.data?.final ? false : POLL_MS),
  });
  const cmd = command.data;
  useEffect(() => {
    if (cmd?.final) void qc.invalidateQueries({ queryKey: ['parameterValues', cmd.carId] });
  }, [cmd?.final, cmd?.carId, qc]);
  useEffect(() => {
    if (data) form.setFieldsValue(initialValues(data.rows));
  }, [data, form]);
  const watched = Form.useWatch([], form);
  const changes = useMemo(() => (data ? diff(data.rows, watched ?? {}) : []), [data, watched]);
  const waiting = !!cmd && !cmd.final && cmd.carId === carId;

  const pick = (id?: number) => {
    setCarId(id);
    setCommandId(undefined);
    setSendError(undefined);
    form.resetFields();
  };

  const run = async (f: () => Promise<ParamCommand>) => {
    setBusy(true);
    setSendError(undefined);
    try {
      const c = await f();
      setCommandId(c.id);
    } catch (e) {
      setSendError(errorText(e));
      void qc.invalidateQueries({ queryKey: ['parameterValues', carId] });
    } finally {
      setBusy(false);
    }
  };

  const send = async () => {
    if (!carId || !data) return;
    try {
      await form.validateFields();
    } catch {
      return;
    }
    if (!changes.length) return;
    modal.confirm({
      title: t('parameter.confirmTitle', { plate: data.plate }),
      width: 520,
      content: (
        <div data-testid="parameter-confirm">
          <Typography.Paragraph>{t('parameter.confirmLead', { n: changes.length })}</Typography.Paragraph>
          {changes.map((c) => (
            <div key={c.id}>{changeLine(c)}</div>
          ))}
        </div>
      ),
      okText: t('parameter.send'),
      cancelText: t('common.cancel'),
      onOk: () => run(() => setParams(carId, changes.map((c) => ({ id: c.id, value: c.new })))),
    });
  };

  const rule = (r: ParamRow) => ({
    validator: (_: unknown, v: FormValue) => {
      // a parameter never read may stay empty
      if ((v === null || v === undefined || v === '') && r.value === null) return Promise.resolve();
      const p = validate(r, v);
      return p ? Promise.reject(new Error(t(`parameter.err.${p.key}`, { ...p.args, unit: r.unitText }))) : Promise.resolve();
    },
  });

  const field = (r: ParamRow, label: boolean) => {
    const changed = changes.some((c) => c.id === r.id);
    // a value edited and not yet sent stands out
    const changedStyle = changed ? { background: '#fffbe6' } : undefined;
    const control =
      r.kind === 2 ? (
        <Input placeholder={t('parameter.unknown')} disabled={!canSet} data-testid={`param-${r.hex}`} style={changedStyle} />
      ) : (
        <InputNumber
          style={{ width: '100%', ...changedStyle }}
          precision={0}
          placeholder={t('parameter.unknown')}
          addonAfter={r.unitText || undefined}
          disabled={!canSet}
          data-testid={`param-${r.hex}`}
        />
      );
    return (
      <Form.Item
        key={r.id}
        name={fieldName(r.id)}
        label={label ? r.name : undefined}
        rules={[rule(r)]}
        tooltip={label ? `${r.hex} · ${t('parameter.rangeHint', { min: r.min, max: r.max, unit: r.kind === 2 ? t('parameter.chars') : r.unitText })}` : undefined}
        style={{ marginBottom: label ? 16 : 0 }}
        validateTrigger={['onChange', 'onBlur']}
      >
        {control}
      </Form.Item>
    );
  };

  const group = (g: string) => data?.rows.filter((r) => r.group === g) ?? [];
  const probes = data ? probeTable(data.rows) : [];
  const probeRow = (k: string) => data?.rows.find((r) => r.group === 'probe' && r.key === k);

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap size={16}>
          <span>{t('parameter.vehicle')}</span>
          <VehiclePicker value={carId} onChange={(v) => pick(v ?? undefined)} style={{ width: 220 }} />
          {data && (
            <>
              {data.online ? <Tag color="green">{t('parameter.online')}</Tag> : <Tag>{t('parameter.offline')}</Tag>}
              <Typography.Text type="secondary" data-testid="parameter-read-at">
                {data.readAt ? t('parameter.readAt', { time: data.readAt }) : t('parameter.neverRead')}
              </Typography.Text>
              <Button type="primary" loading={busy || (waiting && cmd?.kind === 'read')} disabled={waiting || !data.hasTerminal} onClick={() => run(() => readParams(data.carId))} data-testid="parameter-read">
                {t('parameter.read')}
              </Button>
            </>
          )}
        </Space>
      </Card>
      {sendError && <Alert type="error" showIcon message={sendError} data-testid="parameter-error" closable onClose={() => setSendError(undefined)} />}
      {cmd && cmd.carId === carId && <CommandStatus cmd={cmd} />}
      {!carId && (
        <Card>
          <Empty description={t('parameter.pickCar')} />
        </Card>
      )}
      {carId && values.isLoading && (
        <Card>
          <Spin />
        </Card>
      )}
      {values.error && <Alert type="error" showIcon message={errorText(values.error)} />}
      {data && (
        <Form form={form} layout="vertical" data-testid="parameter-form">
          {!data.hasTerminal && <Alert type="warning" showIcon message={t('parameter.noTerminal')} style={{ marginBottom: 12 }} />}
          <Row gutter={12}>
            <Col span={16}>
              <Card size="small" title={t('parameter.groupComm')} style={{ height: '100%' }}>
                <Row gutter={16}>
                  {group('comm').map((r) => (
                    <Col span={8} key={r.id}>
                      {field(r, true)}
                    </Col>
                  ))}
                </Row>
              </Card>
            </Col>
            <Col span={8}>
              <Card size="small" title={t('parameter.groupSpeed')} style={{ height: '100%' }}>
                {group('speed').map((r) => field(r, true))}
              </Card>
            </Col>
          </Row>
          <Card size="small" title={t('parameter.groupProbe')} style={{ marginTop: 12 }}>
            <Table
              size="small"
              pagination={false}
              rowKey="compartment"
              dataSource={probes}
              columns={[
                { title: t('parameter.compartment'), dataIndex: 'compartment', width: 90, render: (c: number) => t('parameter.compartmentN', { n: c }) },
                ...PROBE_FIELDS.map((k) => {
                  const r = probeRow(k);
                  return {
                    title: (
                      <Tooltip title={r ? t('parameter.rangeHint', { min: r.min, max: r.max, unit: r.unitText }) : undefined}>
                        {t(`parameter.probe.${k}`)}
                        {r?.unitText ? ` (${r.unitText})` : ''}
                      </Tooltip>
                    ),
                    key: k,
                    render: (_: unknown, line: (typeof probes)[number]) => (line.cells[k] ? field({ ...line.cells[k], unitText: '' }, false) : null),
                  };
                }),
              ]}
            />
          </Card>
          {group('other').length > 0 && (
            <Card size="small" title={t('parameter.groupOther')} style={{ marginTop: 12 }}>
              <Space wrap>
                {group('other').map((r) => (
                  <Tag key={r.id}>
                    {r.hex} = {String(r.value)}
                  </Tag>
                ))}
              </Space>
            </Card>
          )}
          <Card size="small" style={{ marginTop: 12 }}>
            <Space>
              {canSet && (
                <Button type="primary" disabled={!changes.length || waiting || !data.hasTerminal} loading={busy || (waiting && cmd?.kind === 'set')} onClick={send} data-testid="parameter-send">
                  {changes.length ? t('parameter.sendN', { n: changes.length }) : t('parameter.send')}
                </Button>
              )}
              <Button disabled={!changes.length} onClick={() => form.setFieldsValue(initialValues(data.rows))}>
                {t('parameter.revert')}
              </Button>
              {!canSet && <Typography.Text type="secondary">{t('parameter.readOnly')}</Typography.Text>}
            </Space>
          </Card>
        </Form>
      )}
    </Space>
  );
}

function CommandStatus({ cmd }: { cmd: ParamCommand }) {
  const { t } = useTranslation();
  const type = cmd.state === 'acknowledged' ? 'success' : cmd.state === 'sent' ? 'info' : cmd.state === 'timeout' ? 'warning' : 'error';
  return (
    <Alert
      data-testid="parameter-status"
      data-state={cmd.state}
      type={type}
      showIcon
      icon={cmd.final ? undefined : <Spin size="small" />}
      message={
        <Space>
          <span>{cmd.kindText}</span>
          <Tag color={stateColor[cmd.state]}>{cmd.stateText}</Tag>
          <Typography.Text type="secondary">{cmd.createdAt}</Typography.Text>
        </Space>
      }
      description={
        <>
          <div>{cmd.message}</div>
          {cmd.kind === 'set' && cmd.changes.length > 0 && (
            <div style={{ marginTop: 4 }}>
              {cmd.changes.map((c) => (
                <div key={c.id}>{changeLine({ ...c, new: c.new ?? '' })}</div>
              ))}
            </div>
          )}
          {cmd.kind === 'read' && cmd.final && cmd.state === 'acknowledged' && (
            <div style={{ marginTop: 4 }}>{t('parameter.readCount', { n: cmd.changes.length })}</div>
          )}
        </>
      }
    />
  );
}

function HistoryTab() {
  const { t } = useTranslation();
  return (
    <ListPage<ParamCommand, Filters>
      queryKey="parameterHistory"
      rowKey="id"
      fetch={(q) => paramHistory(q as ParamHistoryQuery)}
      initialFilters={historyInitial() as Partial<Filters>}
      toFilters={(v) => toHistoryFilters<Filters>(v)}
      exportAlways
      exportRequest={paramHistoryExport}
      filters={
        <>
          <Form.Item name="carId" label={t('parameter.vehicle')}>
            <VehiclePicker placeholder={t('common.all')} />
          </Form.Item>
          <Form.Item name="kind" label={t('parameter.kind')}>
            <SelectKind />
          </Form.Item>
          <Form.Item name="state" label={t('parameter.state')}>
            <SelectState />
          </Form.Item>
          <Form.Item name="range" label={t('parameter.range')}>
            <TimeRangePicker showTime defaults={HISTORY_DEFAULTS} />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1200 } }}
      columns={[
        { title: t('parameter.col.createdAt'), dataIndex: 'createdAt', key: 'createdAt', width: 170, sorter: true },
        { title: t('parameter.col.plate'), dataIndex: 'plate', key: 'plate', width: 120, sorter: true },
        { title: t('parameter.col.kind'), dataIndex: 'kindText', key: 'kind', width: 100 },
        { title: t('parameter.col.user'), dataIndex: 'userName', key: 'userName', width: 110, sorter: true },
        {
          title: t('parameter.col.state'),
          dataIndex: 'stateText',
          key: 'state',
          width: 170,
          render: (s: string, c) => <Tag color={stateColor[c.state]}>{s}</Tag>,
        },
        {
          title: t('parameter.col.changes'),
          key: 'changes',
          render: (_, c) =>
            c.kind === 'set' ? (
              c.changes.map((x) => <div key={x.id}>{changeLine({ ...x, new: x.new ?? '' })}</div>)
            ) : (
              <Typography.Text type="secondary">{c.final && c.state === 'acknowledged' ? t('parameter.readCount', { n: c.changes.length }) : '—'}</Typography.Text>
            ),
        },
        { title: t('parameter.col.doneAt'), dataIndex: 'doneAt', key: 'doneAt', width: 170, render: (v: string | null) => v ?? '—' },
      ]}
    />
  );
}

function SelectKind(props: { value?: string; onChange?: (v?: string) => void }) {
  const { t } = useTranslation();
  return (
    <SimpleSelect
      {...props}
      options={[
        { value: 'read', label: t('parameter.kindRead') },
        { value: 'set', label: t('parameter.kindSet') },
      ]}
    />
  );
}

function SelectState(props: { value?: string; onChange?: (v?: string) => void }) {
  const { t } = useTranslation();
  return (
    <SimpleSelect
      {...props}
      options={(['sent', 'acknowledged', 'failed', 'timeout', 'offline'] as const).map((s) => ({ value: s, label: t(`parameter.states.${s}`) }))}
    />
  );
}

function SimpleSelect({ value, onChange, options }: { value?: string; onChange?: (v?: string) => void; options: { value: string; label: string }[] }) {
  const { t } = useTranslation();
  return (
    <Select allowClear placeholder={t('common.all')} style={{ width: 150 }} value={value} onChange={(v) => onChange?.(v ?? undefined)} options={options} />
  );
}

