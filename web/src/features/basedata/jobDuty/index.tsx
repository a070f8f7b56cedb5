import { PlusOutlined } from '@ant-design/icons';
import { Button, Col, Form, Input, Row, Select, Space, Tag, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../app/store';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { dutyDelete, dutyPage, dutySave, employeePage, type Duty } from '../../../api/staff';

type Filters = { name?: string; groupId?: number };

interface Values {
  groupId?: number;
  name: string;
  description?: string;
  responsibilities?: string;
  holderIds?: number[];
}

/** A multiple choice of on-duty employees, searched by name or phone. */
function HoldersSelect(props: { value?: number[]; onChange?: (v: number[]) => void; initial: { id: number; name: string }[] }) {
  const { t } = useTranslation();
  const [opts, setOpts] = useState(props.initial.map((h) => ({ value: h.id, label: h.name })));
  const search = (keyword: string) => {
    employeePage({ pageNum: 1, pageSize: 50, keyword, state: 1 })
      .then((p) => {
        const chosen = new Set(props.value ?? []);
        const keep = opts.filter((o) => chosen.has(o.value));
        const found = p.list.filter((e) => !chosen.has(e.id)).map((e) => ({ value: e.id, label: `${e.name} ${e.phone}` }));
        setOpts([...keep, ...found]);
      })
      .catch(() => undefined);
  };
  useEffect(() => {
    search('');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on open
  }, []);
  return (
    <Select
      mode="multiple"
      showSearch
      filterOption={false}
      onSearch={search}
      value={props.value}
      onChange={props.onChange}
      options={opts}
      placeholder={t('staff.pickHolders')}
      data-testid="duty-holders"
    />
  );
}

function DutyForm({ duty, onClose, onSaved }: { duty: Duty | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const session = useAppStore((s) => s.session);
  useEffect(() => {
    form.setFieldsValue(duty ? { ...duty, holderIds: duty.holders.map((h) => h.id) } : { groupId: session?.groupId, holderIds: [] });
  }, [duty, form, session]);
  return (
    <FormModal<Values>
      form={form}
      name="dutyForm"
      title={t(duty ? 'staff.dutyEditTitle' : 'staff.dutyAddTitle')}
      isAdd={!duty}
      labelWidth={100}
      save={(v) =>
        dutySave({
          id: duty?.id,
          groupId: v.groupId,
          name: v.name.trim(),
          description: (v.description ?? '').trim(),
          responsibilities: (v.responsibilities ?? '').trim(),
          holderIds: v.holderIds ?? [],
        })
      }
      onClose={onClose}
      onSaved={onSaved}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="name" label={t('staff.dutyName')} rules={[{ required: true, whitespace: true, message: t('staff.dutyNameRequired') }]}>
            <Input maxLength={30} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('staff.group')} rules={[{ required: true, message: t('common.selectGroup') }]}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="description" label={t('staff.dutyDescription')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="responsibilities" label={t('staff.responsibilities')}>
            <Input.TextArea maxLength={2000} rows={4} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="holderIds" label={t('staff.holders')}>
            <HoldersSelect initial={duty?.holders ?? []} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}

/** 岗位职责 (basedata/jobDuty, 03-19): duties and who holds them; a duty still held or signing a procedure step cannot be deleted. */
export default function JobDutyPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ duty: Duty | null } | null>(null);
  return (
    <ListPage<Duty, Filters>
      queryKey="jobDuty"
      rowKey="id"
      fetch={(q) => dutyPage(q)}
      filters={
        <>
          <Form.Item name="name" label={t('staff.dutyName')}>
            <Input allowClear style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="groupId" label={t('staff.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ duty: null })}>
              {t('staff.dutyAddTitle')}
            </Button>
          </AuthButton>
          {editing && <DutyForm duty={editing.duty} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), reload())} />}
        </>
      )}
      tableProps={{ scroll: { x: 1200 }, locale: { emptyText: t('staff.dutyEmpty') } }}
      columns={({ reload }) => [
        { title: t('staff.dutyName'), dataIndex: 'name', key: 'name', sorter: true, width: 140, fixed: 'left' },
        { title: t('staff.dutyDescription'), dataIndex: 'description', key: 'description', width: 180, ellipsis: true, render: (v: string) => v || '—' },
        {
          title: t('staff.responsibilities'),
          dataIndex: 'responsibilities',
          key: 'responsibilities',
          width: 320,
          ellipsis: { showTitle: false },
          render: (v: string) => (v ? <Tooltip title={v}>{v}</Tooltip> : '—'),
        },
        {
          title: t('staff.holders'),
          dataIndex: 'holders',
          key: 'holders',
          width: 220,
          render: (hs: Duty['holders']) => (hs.length ? hs.map((h) => <Tag key={h.id}>{h.name}</Tag>) : <span className="tw-muted">{t('staff.noHolders')}</span>),
        },
        { title: t('staff.signsSteps'), dataIndex: 'steps', key: 'steps', width: 100, align: 'right' },
        { title: t('staff.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 120, ellipsis: true },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 130,
          render: (_, d) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ duty: d })}>
                  {t('common.edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                {d.holders.length > 0 || d.steps > 0 ? (
                  <Tooltip title={t('staff.dutyDeleteHint')}>
                    <Button type="link" size="small" danger disabled>
                      {t('common.delete')}
                    </Button>
                  </Tooltip>
                ) : (
                  <ConfirmDelete run={() => dutyDelete(d.id)} onDone={reload} />
                )}
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
