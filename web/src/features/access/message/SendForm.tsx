import { useQuery } from '@tanstack/react-query';
import { App, Badge, Form, Input, Modal, Select, TreeSelect } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageUsers, sendMessage } from '../../../api/message';
import { toGroupOptions, useGroupTree } from '../groupInfo/groupTree';

interface Values {
  title: string;
  content: string;
  userIds?: number[];
  groupIds?: number[];
}

/** The send dialog: title, content, and users and/or groups of the caller's scope (a group reaches its whole subtree). */
export function SendForm({ onClose, onSent }: { onClose: () => void; onSent: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const users = useQuery({ queryKey: ['messageUsers'], queryFn: () => messageUsers() });
  const tree = useGroupTree();

  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const res = await sendMessage({ title: v.title.trim(), content: v.content.trim(), userIds: v.userIds ?? [], groupIds: v.groupIds ?? [] });
      void message.success(t('message.sent', { count: res.recipients, online: res.online }));
      onSent();
      onClose();
    } catch {
      // the API client has shown the server's message
    } finally {
      setSaving(false);
    }
  };

  const noRecipients = () =>
    form.getFieldValue('userIds')?.length || form.getFieldValue('groupIds')?.length ? Promise.resolve() : Promise.reject(new Error(t('message.recipientsRequired')));

  return (
    <Modal
      open
      title={t('message.send')}
      width={640}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('message.sendOk')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      maskClosable={false}
      destroyOnHidden
    >
      <Form<Values> form={form} name="messageForm" layout="vertical">
        <Form.Item name="title" label={t('message.title')} rules={[{ required: true, whitespace: true, message: t('message.titleRequired') }, { max: 64, message: t('message.titleLength') }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="content" label={t('message.content')} rules={[{ required: true, whitespace: true, message: t('message.contentRequired') }]}>
          <Input.TextArea rows={4} maxLength={1000} showCount />
        </Form.Item>
        <Form.Item name="userIds" label={t('message.users')} dependencies={['groupIds']} rules={[{ validator: noRecipients }]}>
          <Select
            mode="multiple"
            allowClear
            loading={users.isLoading}
            placeholder={t('message.usersPlaceholder')}
            optionFilterProp="label"
            options={(users.data ?? []).map((u) => ({
              value: u.id,
              label: `${u.nickName || u.name} (${u.name}) ${u.groupName}`,
              title: u.online ? t('message.online') : t('message.offline'),
            }))}
            optionRender={(o) => (
              <span>
                <Badge status={o.data.title === t('message.online') ? 'success' : 'default'} /> {o.data.label}
              </span>
            )}
          />
        </Form.Item>
        <Form.Item name="groupIds" label={t('message.groups')} extra={t('message.groupsHint')} dependencies={['userIds']} rules={[{ validator: noRecipients }]}>
          <TreeSelect multiple allowClear treeData={toGroupOptions(tree.data)} showSearch treeNodeFilterProp="title" placeholder={t('message.groupsPlaceholder')} treeDefaultExpandAll />
        </Form.Item>
      </Form>
    </Modal>
  );
}
