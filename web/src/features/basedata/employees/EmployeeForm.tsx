import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Col, DatePicker, Form, Input, Row, Select, Space, Upload } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { warn } from '../../../api/feedback';
import { codeLabel, useCodeList, type CodeItem } from '../../../api/settings';
import { useAppStore } from '../../../app/store';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import {
  bitsOf,
  employeePhotoUpload,
  employeePhotoURL,
  employeeSave,
  LICENCE_CLASSES,
  ROLE_NAMES,
  ROLES,
  rolesOf,
  validIDCard,
  type Employee,
  type EmployeeInput,
} from '../../../api/staff';

export interface EmployeeFormValues {
  groupId?: number;
  name: string;
  idCard: string;
  phone: string;
  roles: number[];
  licenceClasses?: string[];
  licenceExpiry?: Dayjs | null;
  qualNo?: string;
  qualKind?: number;
  qualExpiry?: Dayjs | null;
  state?: number;
  remark?: string;
}

const day = (d?: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : '');
const dayOf = (s: string) => (s ? dayjs(s) : null);

/** The body of employees/save from the form's values. */
export function toEmployeeBody(v: EmployeeFormValues, id?: number): EmployeeInput {
  return {
    id,
    groupId: v.groupId,
    name: v.name.trim(),
    idCard: v.idCard.trim().toUpperCase(),
    phone: v.phone.trim(),
    roles: bitsOf(v.roles),
    licenceClasses: (v.licenceClasses ?? []).join(','),
    licenceExpiry: day(v.licenceExpiry),
    qualNo: (v.qualNo ?? '').trim(),
    qualKind: v.qualKind ?? 0,
    qualExpiry: day(v.qualExpiry),
    state: v.state ?? 1,
    remark: (v.remark ?? '').trim(),
  };
}

const MAX_PHOTO = 2 << 20;

/** The employee's photo with an upload button (an employee must exist first: the photo is filed under its id). */
function PhotoField({ employee }: { employee: Employee | null }) {
  const { t } = useTranslation();
  const [url, setURL] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [has, setHas] = useState(!!employee?.hasPhoto);
  useEffect(() => {
    if (!employee || !has) return;
    let gone = false;
    let made: string | undefined;
    employeePhotoURL(employee.id)
      .then((u) => {
        made = u;
        if (!gone) setURL(u);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [employee, has]);
  if (!employee) return <span className="tw-muted">{t('staff.photoAfterSave')}</span>;
  return (
    <Space>
      <Avatar shape="square" size={64} src={url} icon={<UserOutlined />} />
      <Upload
        accept="image/jpeg,image/png,image/webp"
        showUploadList={false}
        beforeUpload={(f) => {
          if (f.size > MAX_PHOTO) {
            warn(t('staff.photoTooLarge'));
            return false;
          }
          setBusy(true);
          employeePhotoUpload(employee.id, f)
            .then(() => {
              setURL(undefined);
              setHas(false);
              setTimeout(() => setHas(true));
            })
            .catch(() => undefined)
            .finally(() => setBusy(false));
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy} data-testid="emp-photo">
          {t('staff.photoUpload')}
        </Button>
      </Upload>
      <span className="tw-muted">{t('staff.photoHint')}</span>
    </Space>
  );
}

/** Add or edit an employee: identity, roles, licence, dangerous-goods qualification, group, state and photo. */
/**
 * The licence classes of the code list (access/baseType, D66) in its order: the enabled ones and those the
 * employee holds (valid on them even when disabled since); the built-in classes until the list answers.
 */
export function licenceOptions(items: readonly CodeItem[] | undefined, lang: string, held?: string): { value: string; label: string }[] {
  if (!items) return LICENCE_CLASSES.map((c) => ({ value: c as string, label: c as string }));
  const keep = (held ?? '').split(',');
  return items.filter((it) => it.enabled || keep.includes(it.code)).map((it) => ({ value: it.code, label: codeLabel(it, lang) }));
}

export function EmployeeForm({ employee, onClose, onSaved }: { employee: Employee | null; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const licences = useCodeList('licenceClass');
  const [form] = Form.useForm<EmployeeFormValues>();
  const session = useAppStore((s) => s.session);
  useEffect(() => {
    form.setFieldsValue(
      employee
        ? {
            ...employee,
            roles: rolesOf(employee.roles),
            licenceClasses: employee.licenceClasses ? employee.licenceClasses.split(',') : [],
            licenceExpiry: dayOf(employee.licenceExpiry),
            qualExpiry: dayOf(employee.qualExpiry),
            qualKind: employee.qualKind || undefined,
          }
        : { groupId: session?.groupId, roles: [1], state: 1 },
    );
  }, [employee, form, session]);
  const roles = Form.useWatch('roles', form) ?? [];
  const qualNeeded = roles.includes(1) || roles.includes(2);
  return (
    <FormModal<EmployeeFormValues>
      form={form}
      name="employeeForm"
      title={t(employee ? 'staff.editTitle' : 'staff.addTitle')}
      isAdd={!employee}
      save={(v) => employeeSave(toEmployeeBody(v, employee?.id))}
      onClose={onClose}
      onSaved={onSaved}
      width={860}
      labelWidth={130}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="name" label={t('staff.name')} rules={[{ required: true, whitespace: true, message: t('staff.nameRequired') }]}>
            <Input maxLength={20} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="idCard"
            label={t('staff.idCard')}
            rules={[
              { required: true, whitespace: true, message: t('staff.idCardRequired') },
              { validator: (_, v: string) => (!v || validIDCard(v) ? Promise.resolve() : Promise.reject(new Error(t('staff.idCardInvalid')))) },
            ]}
          >
            <Input maxLength={18} autoComplete="off" style={{ textTransform: 'uppercase' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="phone"
            label={t('staff.phone')}
            rules={[
              { required: true, whitespace: true, message: t('staff.phoneRequired') },
              { pattern: /^1[3-9]\d{9}$/, message: t('staff.phoneInvalid') },
            ]}
          >
            <Input maxLength={11} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="roles" label={t('staff.roles')} rules={[{ required: true, type: 'array', min: 1, message: t('staff.rolesRequired') }]}>
            <Select mode="multiple" options={ROLES.map((r) => ({ value: r, label: t(`staff.role.${ROLE_NAMES[r]}`) }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="licenceClasses"
            label={t('staff.licenceClasses')}
            rules={[{ required: roles.includes(1), type: 'array', min: roles.includes(1) ? 1 : 0, message: t('staff.licenceRequired') }]}
          >
            <Select mode="multiple" options={licenceOptions(licences.data, i18n.language, employee?.licenceClasses)} loading={licences.isLoading} data-testid="licenceClasses" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="licenceExpiry" label={t('staff.licenceExpiry')}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="qualNo" label={t('staff.qualNo')} tooltip={qualNeeded ? t('staff.qualHint') : undefined}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="qualKind" label={t('staff.qualKind')}>
            <Select allowClear options={[1, 2].map((k) => ({ value: k, label: t(`staff.qualKindName.${k}`) }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="qualExpiry" label={t('staff.qualExpiry')}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('staff.group')} rules={[{ required: true, message: t('common.selectGroup') }]}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="state" label={t('staff.state')}>
            <Select options={[1, 2].map((s) => ({ value: s, label: t(`staff.stateName.${s}`) }))} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label={t('staff.photo')}>
            <PhotoField employee={employee} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('staff.remark')}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
