import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteTerminals, pageTerminals, queryTerminalAttributes, type Terminal, type TerminalAttrs, type TerminalQuery } from '../../../api/fleet';
import { zoneTime } from '../../../lib/zone';
import { AuthButton } from '../../../components/AuthButton';
import { GroupSelect } from '../../../components/GroupSelect';
import { BatchDeleteButton } from '../../../components/BatchDeleteButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { ListPage } from '../../../components/ListPage';
import { BindingsDrawer } from './BindingsDrawer';
import { BindModal } from './BindModal';
import { TerminalForm } from './TerminalForm';

type TerminalFilters = Omit<TerminalQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

const muted = (v: string | null | undefined) => v || <span className="tw-muted">—</span>;

/** A field of the terminal's own report (0x0107): 未上报 until it first answers, — for an empty field. */
function reported(attrs: TerminalAttrs | null, field: keyof TerminalAttrs, none: string) {
  if (!attrs) return <span className="tw-muted">{none}</span>;
  return muted(String(attrs[field] ?? ''));
}

/** 查询终端属性: asks the terminal now (0x8107) and shows what it answered. */
function QueryAttrsButton({ terminal, onDone }: { terminal: Terminal; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    setBusy(true);
    try {
      const v = await queryTerminalAttributes(terminal.id);
      message.success(t('terminal.attrsQueried', { firmware: v.attrs?.firmware || '—', hardware: v.attrs?.hardware || '—' }));
      onDone();
    } catch {
      // the client already said why (offline, no answer, refused)
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="link" size="small" loading={busy} onClick={ask} data-testid="query-attrs">
      {t('terminal.queryAttrs')}
    </Button>
  );
}

/** 终端管理: filter, page, add/edit, bind car + SIM, binding history, delete, export. */
export default function TerminalPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ terminal: Terminal | null } | null>(null);
  const [binding, setBinding] = useState<Terminal | null>(null);
  const [history, setHistory] = useState<Terminal | null>(null);

  return (
    <>
      <ListPage<Terminal, TerminalFilters>
        queryKey="terminalVXE"
        rowKey="id"
        fetch={pageTerminals}
        selectable
        tableProps={{ scroll: { x: 2000 } }}
        exportRequest={(f) => ({ url: '/base-info-app/terminal/export', method: 'POST', data: f })}
        filters={
          <>
            <Form.Item name="phone" label={t('terminal.phone')}>
              <Input allowClear style={{ width: 150 }} />
            </Form.Item>
            <Form.Item name="groupId" label={t('terminal.group')}>
              <GroupSelect filter />
            </Form.Item>
            <Form.Item name="firmware" label={t('terminal.firmware')}>
              <Input allowClear style={{ width: 150 }} data-testid="firmware-filter" />
            </Form.Item>
          </>
        }
        toolbar={({ reload, selectedRowKeys, clearSelection }) => (
          <>
            <AuthButton code="add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ terminal: null })}>
                {t('terminal.addTitle')}
              </Button>
            </AuthButton>
            <BatchDeleteButton ids={selectedRowKeys} remove={deleteTerminals} onDone={() => { clearSelection(); reload(); }} />
            {editing && (
              <TerminalForm
                terminal={editing.terminal}
                onClose={() => setEditing(null)}
                onSaved={() => {
                  setEditing(null);
                  reload();
                }}
              />
            )}
            {binding && (
              <BindModal
                terminal={binding}
                onClose={() => setBinding(null)}
                onDone={() => {
                  setBinding(null);
                  reload();
                }}
              />
            )}
          </>
        )}
        columns={({ reload }) => [
          { title: t('terminal.phone'), dataIndex: 'phone', key: 'phone', sorter: true, width: 140, fixed: 'left' },
          { title: t('terminal.deviceId'), dataIndex: 'deviceId', key: 'deviceId', sorter: true, width: 120, render: muted },
          { title: t('terminal.manufacturer'), dataIndex: 'manufacturer', key: 'manufacturer', width: 110, ellipsis: true, render: muted },
          { title: t('terminal.model'), dataIndex: 'model', key: 'model', width: 100, ellipsis: true, render: muted },
          {
            title: <Tooltip title={t('terminal.firmwareHint')}>{t('terminal.firmware')}</Tooltip>,
            dataIndex: 'firmware',
            key: 'firmware',
            sorter: true,
            width: 140,
            ellipsis: true,
            render: (v: string) => v || <span className="tw-muted">{t('terminal.notUpgraded')}</span>,
          },
          {
            title: <Tooltip title={t('terminal.reportedHintNever')}>{t('terminal.reportedFirmware')}</Tooltip>,
            key: 'reportedFirmware',
            width: 140,
            ellipsis: true,
            render: (_, r) =>
              r.attrs ? (
                <Tooltip title={t('terminal.reportedHint', { at: zoneTime(r.attrs.at).format('YYYY-MM-DD HH:mm:ss') })}>
                  <span data-testid="reported-firmware">{muted(r.attrs.firmware)}</span>
                </Tooltip>
              ) : (
                reported(null, 'firmware', t('terminal.notReported'))
              ),
          },
          { title: t('terminal.hardware'), key: 'hardware', width: 150, ellipsis: true, render: (_, r) => reported(r.attrs, 'hardware', t('terminal.notReported')) },
          { title: t('terminal.reportedModel'), key: 'reportedModel', width: 110, ellipsis: true, render: (_, r) => reported(r.attrs, 'model', t('terminal.notReported')) },
          { title: t('terminal.iccid'), key: 'iccid', width: 190, render: (_, r) => reported(r.attrs, 'iccid', t('terminal.notReported')) },
          { title: t('terminal.protocol'), dataIndex: 'protocol', key: 'protocol', sorter: true, width: 90 },
          { title: t('terminal.plate'), dataIndex: 'plate', key: 'plate', sorter: true, width: 120, render: muted },
          { title: t('terminal.msisdn'), dataIndex: 'msisdn', key: 'msisdn', sorter: true, width: 130, render: muted },
          { title: t('terminal.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 130, ellipsis: true },
          {
            title: t('terminal.status'),
            dataIndex: 'status',
            key: 'status',
            width: 80,
            render: (v: number) => (v === 1 ? <Tag color="success">{t('terminal.enabled')}</Tag> : <Tag>{t('terminal.disabled')}</Tag>),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            width: 400,
            render: (_, r) => (
              <Space size={0}>
                <AuthButton code="edit">
                  <Button type="link" size="small" onClick={() => setEditing({ terminal: r })}>
                    {t('menu.terminalVXE-edit')}
                  </Button>
                </AuthButton>
                <AuthButton code="edit">
                  <QueryAttrsButton terminal={r} onDone={reload} />
                </AuthButton>
                <AuthButton code="bind">
                  <Button type="link" size="small" onClick={() => setBinding(r)}>
                    {t('menu.terminalVXE-bind')}
                  </Button>
                </AuthButton>
                <Button type="link" size="small" onClick={() => setHistory(r)}>
                  {t('terminal.history')}
                </Button>
                <AuthButton code="delete">
                  <ConfirmDelete run={() => deleteTerminals([r.id])} onDone={reload} />
                </AuthButton>
              </Space>
            ),
          },
        ]}
      />
      {history && <BindingsDrawer terminal={history} onClose={() => setHistory(null)} />}
    </>
  );
}
