import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import {
  employeeDelete,
  employeeExport,
  employeePage,
  EXPIRY_STATES,
  expiryColour,
  ROLE_NAMES,
  ROLES,
  rolesOf,
  type Employee,
  type EmployeeQuery,
} from '../../../api/staff';
import { EmployeeForm } from './EmployeeForm';
import { ImportModal } from './ImportModal';
import { SummaryBar } from './SummaryBar';
import './employees.css';

type Filters = Omit<EmployeeQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;
type Dialog = { kind: 'edit'; employee: Employee | null } | { kind: 'import' };

/** The expiry filter a link may carry (?expiry=expired from the home tile). */
export function expiryParam(v: string | null): string | undefined {
  return v && (EXPIRY_STATES as readonly string[]).includes(v) ? v : undefined;
}

/** 员工信息 (basedata/employees, 03-08): drivers, escorts, loaders and dispatchers with their licences and qualifications. */
export default function EmployeesPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const qc = useQueryClient();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [initial] = useState<Partial<Filters>>(() => ({ expiry: expiryParam(params.get('expiry')) }));
  const saved = (reload: () => void) => {
    setDialog(null);
    reload();
    void qc.invalidateQueries({ queryKey: ['employeeSummary'] });
  };
  return (
    <ListPage<Employee, Filters>
      queryKey="employees"
      rowKey="id"
      fetch={(q) => employeePage(q as EmployeeQuery)}
      initialFilters={initial}
      exportCode="export"
      exportRequest={employeeExport}
      filters={
        <>
          <Form.Item name="keyword" label={t('staff.keyword')}>
            <Input allowClear style={{ width: 190 }} placeholder={t('staff.keywordHint')} />
          </Form.Item>
          <Form.Item name="role" label={t('staff.roles')}>
            <Select allowClear style={{ width: 110 }} placeholder={t('common.all')} options={ROLES.map((r) => ({ value: r, label: t(`staff.role.${ROLE_NAMES[r]}`) }))} />
          </Form.Item>
          <Form.Item name="expiry" label={t('staff.expiry')}>
            <Select allowClear style={{ width: 120 }} placeholder={t('common.all')} options={EXPIRY_STATES.map((s) => ({ value: s, label: t(`staff.expiryName.${s}`) }))} />
          </Form.Item>
          <Form.Item name="state" label={t('staff.state')}>
            <Select allowClear style={{ width: 100 }} placeholder={t('common.all')} options={[1, 2].map((s) => ({ value: s, label: t(`staff.stateName.${s}`) }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('staff.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload, form, filters }) => (
        <>
          <Space size="large" wrap>
            <Space>
              <AuthButton code="add">
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'edit', employee: null })}>
                  {t('staff.addTitle')}
                </Button>
              </AuthButton>
              <AuthButton code="import">
                <Button icon={<ImportOutlined />} onClick={() => setDialog({ kind: 'import' })}>
                  {t('staff.import')}
                </Button>
              </AuthButton>
            </Space>
            <SummaryBar
              active={filters.expiry}
              onPick={(expiry) => {
                form.setFieldsValue({ expiry } as Partial<Filters>);
                form.submit();
              }}
            />
          </Space>
          {dialog?.kind === 'edit' && <EmployeeForm employee={dialog.employee} onClose={() => setDialog(null)} onSaved={() => saved(reload)} />}
          {dialog?.kind === 'import' && <ImportModal onClose={() => setDialog(null)} onSaved={() => saved(reload)} />}
        </>
      )}
      tableProps={{
        scroll: { x: 1600 },
        locale: { emptyText: t('staff.empty') },
        rowClassName: (e) => (e.state === 1 && (e.expiry === 'expired' || e.expiry === 'expiring') ? `tw-staff-${e.expiry}` : ''),
      }}
      columns={({ reload }) => [
        { title: t('staff.name'), dataIndex: 'name', key: 'name', sorter: true, width: 100, fixed: 'left' },
        { title: t('staff.phone'), dataIndex: 'phone', key: 'phone', sorter: true, width: 120 },
        { title: t('staff.idCard'), dataIndex: 'idCard', key: 'idCard', sorter: true, width: 180 },
        {
          title: t('staff.roles'),
          dataIndex: 'roles',
          key: 'roles',
          width: 150,
          render: (r: number) => rolesOf(r).map((b) => <Tag key={b}>{t(`staff.role.${ROLE_NAMES[b]}`)}</Tag>),
        },
        { title: t('staff.licenceClasses'), dataIndex: 'licenceClasses', key: 'licenceClasses', width: 100, render: (v: string) => v || '—' },
        { title: t('staff.licenceExpiry'), dataIndex: 'licenceExpiry', key: 'licenceExpiry', sorter: true, width: 130, render: (v: string) => v || '—' },
        {
          title: t('staff.qualExpiry'),
          dataIndex: 'qualExpiry',
          key: 'qualExpiry',
          sorter: true,
          width: 130,
          render: (v: string, e) => (v ? <Tooltip title={`${e.qualNo} · ${t(`staff.qualKindName.${e.qualKind}`)}`}>{v}</Tooltip> : '—'),
        },
        {
          title: t('staff.expiry'),
          dataIndex: 'expiry',
          key: 'expiresOn',
          sorter: true,
          width: 110,
          render: (v: Employee['expiry'], e) => (e.state === 2 ? '—' : <Tag color={expiryColour(v)}>{t(`staff.expiryName.${v}`)}</Tag>),
        },
        {
          title: t('staff.state'),
          dataIndex: 'state',
          key: 'state',
          sorter: true,
          width: 80,
          render: (s: number) => <Tag color={s === 1 ? 'green' : 'default'}>{t(`staff.stateName.${s}`)}</Tag>,
        },
        { title: t('staff.duties'), dataIndex: 'duties', key: 'duties', width: 160, ellipsis: true, render: (d: string[]) => d.join(t('common.listSeparator')) || '—' },
        { title: t('staff.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 120, ellipsis: true },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 130,
          render: (_, e) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', employee: e })}>
                  {t('common.edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => employeeDelete(e.id)} onDone={() => saved(reload)} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
