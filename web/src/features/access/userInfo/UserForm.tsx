import { useQuery } from '@tanstack/react-query';
import { Col, DatePicker, Form, Input, Row, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { listRoles } from '../../../api/role';
import type { User } from '../../../api/types';
import { insertUser, newUser, updateUser, type UserInsert } from '../../../api/user';
import { useAppStore } from '../../../app/store';
import { MAX_NICKNAME, plainName, validAccount } from '../names';

export interface UserFormValues {
  name: string;
  nickName?: string;
  password?: string;
  confirm?: string;
  phone?: string;
  email?: string;
  groupId?: number;
  roleIds?: number[];
  status: boolean;
  platform: boolean;
  expireAt?: Dayjs | null;
}

/** Mainland mobile number (docs/API.md). */
export const PHONE_RE = /^1\d{10}$/;

/** Form values → insert/update body (spec §5: starts from the defaults, overwritten by the form). */
export function toUserBody(v: UserFormValues): UserInsert {
  return newUser({
    name: v.name.trim(),
    nickName: v.nickName?.trim() ?? '',
    password: v.password ?? '',
    phone: v.phone?.trim() ?? '',
    email: v.email?.trim() ?? '',
    platform: !!v.platform,
    groupId: v.groupId,
    roleIds: v.roleIds ?? [],
    status: v.status ? 1 : 0,
    expireAt: v.expireAt ? v.expireAt.format('YYYY-MM-DD 23:59:59') : null,
  });
}

function toValues(u: User | null, defaultGroup?: number): Partial<UserFormValues> {
  if (!u) return { status: true, platform: false, groupId: defaultGroup, roleIds: [] };
  return {
    name: u.name,
    nickName: u.nickName,
    phone: u.phone,
    email: u.email,
    groupId: u.groupId,
    roleIds: u.roleIds ?? [],
    status: u.status === 1,
    platform: !!u.platform,
    expireAt: u.expireAt ? dayjs(u.expireAt) : null,
  };
}

/** Add/Edit user modal. `user` null → add (with password fields). */
export function UserForm({ open, user, onClose, onSaved }: { open: boolean; user: User | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<UserFormValues>();
  const roles = useQuery({ queryKey: ['roleList'], queryFn: () => listRoles(false), enabled: open, staleTime: 30_000 });
  const myGroup = useAppStore((s) => s.session?.groupId);
  const isAdd = !user;

  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue(toValues(user, myGroup));
    }
  }, [open, user, myGroup, form]);

  const save = async (v: UserFormValues) => {
    const body = toUserBody(v);
    if (isAdd) await insertUser(body);
    else {
      const { password: _p, ...rest } = body;
      await updateUser({ ...rest, id: user.id });
    }
  };

  // the server's rules (internal/org/names.go): an existing account keeps a name that predates them
  const nameRules: Rule[] = [
    { required: true, whitespace: true, message: t('userInfo.nameRequired') },
    {
      validator: (_, v: string | undefined) =>
        !v?.trim() || validAccount(v, user?.name) ? Promise.resolve() : Promise.reject(new Error(t('userInfo.nameLength'))),
    },
  ];
  const nickNameRules: Rule[] = [
    { max: MAX_NICKNAME, message: t('userInfo.nickNameLength') },
    { validator: (_, v: string | undefined) => (plainName(v) ? Promise.resolve() : Promise.reject(new Error(t('userInfo.nickNameHidden')))) },
  ];

  return (
    <FormModal<UserFormValues>
      form={form}
      name="userForm"
      title={t(isAdd ? 'userInfo.addTitle' : 'userInfo.editTitle')}
      isAdd={isAdd}
      save={save}
      onClose={onClose}
      onSaved={onSaved}
      open={open}
      width={760}
      labelWidth={96}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="name" label={t('userInfo.name')} rules={nameRules}>
            <Input maxLength={32} autoComplete="off" placeholder={t('userInfo.namePlaceholder')} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="nickName" label={t('userInfo.nickName')} rules={nickNameRules}>
            <Input maxLength={MAX_NICKNAME} />
          </Form.Item>
        </Col>
        {isAdd && (
          <>
            <Col span={12}>
              <Form.Item
                name="password"
                label={t('userInfo.password')}
                rules={[
                  { required: true, message: t('userInfo.passwordRequired') },
                  { min: 6, message: t('userInfo.passwordMin') },
                ]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="confirm"
                label={t('userInfo.confirmPassword')}
                dependencies={['password']}
                rules={[
                  { required: true, message: t('userInfo.confirmRequired') },
                  ({ getFieldValue }) => ({
                    validator: (_, value) =>
                      !value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(t('userInfo.passwordMismatch'))),
                  }),
                ]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
          </>
        )}
        <Col span={12}>
          <Form.Item name="phone" label={t('userInfo.phone')} rules={[{ pattern: PHONE_RE, message: t('userInfo.phoneInvalid') }]}>
            <Input maxLength={11} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="email" label={t('userInfo.email')} rules={[{ type: 'email', message: t('userInfo.emailInvalid') }]}>
            <Input maxLength={128} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('userInfo.group')} rules={[{ required: true, message: t('userInfo.groupRequired') }]}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="expireAt" label={t('userInfo.expireAt')}>
            <DatePicker style={{ width: '100%' }} placeholder={t('userInfo.never')} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="roleIds" label={t('userInfo.roles')} labelCol={{ flex: '96px' }}>
            <Select
              mode="multiple"
              allowClear
              loading={roles.isLoading}
              placeholder={roles.isError ? t('userInfo.rolesUnavailable') : t('userInfo.rolesPlaceholder')}
              optionFilterProp="label"
              options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.groupName ? `${r.name} · ${r.groupName}` : r.name }))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="status" label={t('userInfo.status')} valuePropName="checked">
            <Switch checkedChildren={t('userInfo.enabled')} unCheckedChildren={t('userInfo.disabled')} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="platform" label={t('userInfo.platform')} valuePropName="checked" tooltip={t('userInfo.platformHint')}>
            <Switch checkedChildren={t('common.yes')} unCheckedChildren={t('common.no')} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
