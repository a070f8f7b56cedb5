import { DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { useCodes } from '../../../api/useCodes';
import { employeePage, leaveSave, type Leave } from '../../../api/staff';

interface Values {
  employeeId: number;
  kind: string;
  range: [Dayjs, Dayjs];
  reason?: string;
}

/** The people the leave form offers: a search over the register (name or phone), on-duty people only. */
export function EmployeeSelect(props: { value?: number; onChange?: (v: number) => void; initial?: { id: number; name: string }; disabled?: boolean }) {
  const { t } = useTranslation();
  const [opts, setOpts] = useState<{ value: number; label: string }[]>(props.initial ? [{ value: props.initial.id, label: props.initial.name }] : []);
  const search = (keyword: string) => {
    employeePage({ pageNum: 1, pageSize: 30, keyword, state: 1 })
      .then((p) => setOpts(p.list.map((e) => ({ value: e.id, label: `${e.name} ${e.phone}` }))))
      .catch(() => undefined);
  };
  useEffect(() => {
    if (!props.initial) search('');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on open
  }, []);
  return (
    <Select
      showSearch
      filterOption={false}
      onSearch={search}
      value={props.value}
      onChange={props.onChange}
      disabled={props.disabled}
      options={opts}
      placeholder={t('staff.pickEmployee')}
      data-testid="leave-employee"
    />
  );
}

/** Add or edit a pending leave request. */
export function LeaveForm({ leave, onClose, onSaved }: { leave: Leave | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const kinds = useCodes('leaveKind');
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    form.setFieldsValue(leave ? { employeeId: leave.employeeId, kind: leave.kind, range: [dayjs(leave.from), dayjs(leave.to)], reason: leave.reason } : { kind: 'annual' });
  }, [leave, form]);
  return (
    <FormModal<Values>
      form={form}
      name="leaveForm"
      title={t(leave ? 'staff.leaveEditTitle' : 'staff.leaveAddTitle')}
      isAdd={!leave}
      width={620}
      labelWidth={100}
      save={(v) =>
        leaveSave({ id: leave?.id, employeeId: v.employeeId, kind: v.kind, from: v.range[0].format('YYYY-MM-DD'), to: v.range[1].format('YYYY-MM-DD'), reason: (v.reason ?? '').trim() })
      }
      onClose={onClose}
      onSaved={onSaved}
    >
      <Form.Item name="employeeId" label={t('staff.employee')} rules={[{ required: true, message: t('staff.pickEmployee') }]}>
        <EmployeeSelect initial={leave ? { id: leave.employeeId, name: leave.employeeName } : undefined} />
      </Form.Item>
      <Form.Item name="kind" label={t('staff.leaveKind')} rules={[{ required: true }]}>
        <Select options={kinds.options(leave?.kind)} loading={kinds.loading} data-testid="leave-kind" />
      </Form.Item>
      <Form.Item name="range" label={t('staff.leaveDates')} rules={[{ required: true, message: t('staff.leaveDatesRequired') }]}>
        <DatePicker.RangePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="reason" label={t('staff.leaveReason')}>
        <Input.TextArea maxLength={200} rows={3} />
      </Form.Item>
    </FormModal>
  );
}
