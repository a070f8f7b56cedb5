import { useQuery } from '@tanstack/react-query';
import { App, Col, Form, Input, Modal, Row, TreeSelect } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addChildGroup, addGroup, editGroup, findParents, type GroupInput } from '../../../api/group';
import type { Group } from '../../../api/types';
import { toGroupOptions, useGroupTree } from './groupTree';
import { plainName } from '../names';

export type GroupFormMode = { kind: 'add' } | { kind: 'addChildren'; parent: Group } | { kind: 'edit'; group: Group };

type Values = Omit<GroupInput, 'parentId'> & { parentId?: number | null };

const clean = (v: Values): GroupInput => ({
  name: v.name.trim(),
  code: v.code?.trim() || undefined,
  contact: v.contact?.trim() ?? '',
  phone: v.phone?.trim() ?? '',
  address: v.address?.trim() ?? '',
  remark: v.remark?.trim() ?? '',
});

/** Add (top level), add children, or edit a group; edit can move it under another parent. */
export function GroupForm({ mode, onClose, onSaved }: { mode: GroupFormMode; onClose: () => void; onSaved: (g: Group) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const tree = useGroupTree();
  const editing = mode.kind === 'edit' ? mode.group : null;
  const parents = useQuery({ queryKey: ['groupParents', editing?.id], queryFn: () => findParents(editing!.id), enabled: !!editing, gcTime: 0 });

  useEffect(() => {
    if (editing) form.setFieldsValue({ ...editing, parentId: editing.parentId });
    else if (mode.kind === 'addChildren') form.setFieldsValue({ parentId: mode.parent.id });
  }, [editing, mode, form]);

  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      let g: Group;
      if (mode.kind === 'edit') g = await editGroup({ ...clean(v), id: mode.group.id, ...(v.parentId != null ? { parentId: v.parentId } : {}) });
      else if (mode.kind === 'addChildren') g = await addChildGroup({ ...clean(v), parentId: mode.parent.id });
      else g = await addGroup({ ...clean(v), parentId: null });
      void message.success(t(mode.kind === 'edit' ? 'common.modifySuccess' : 'common.addSuccess'));
      onSaved(g);
    } catch {
      // server message shown by the client
    } finally {
      setSaving(false);
    }
  };

  const title =
    mode.kind === 'edit' ? t('groupInfo.editTitle') : mode.kind === 'addChildren' ? t('groupInfo.addChildTitle', { name: mode.parent.name }) : t('groupInfo.addTitle');
  const showParent = mode.kind === 'edit' && editing?.parentId != null;

  return (
    <Modal
      open
      title={title}
      width={760}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      maskClosable={false}
      destroyOnHidden
    >
      <Form<Values> form={form} name="groupForm" layout="horizontal" labelCol={{ flex: '96px' }} labelAlign="left" colon={false}>
        <Row gutter={24}>
          <Col span={12}>
            <Form.Item name="name" label={t('groupInfo.name')} rules={[
                { required: true, whitespace: true, message: t('groupInfo.nameRequired') },
                { max: 64, message: t('groupInfo.nameLength') },
                { validator: (_, v: string | undefined) => (plainName(v) ? Promise.resolve() : Promise.reject(new Error(t('groupInfo.nameHidden')))) },
              ]}
            >
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="code" label={t('groupInfo.code')} tooltip={t('groupInfo.codeHint')}>
              <Input maxLength={32} disabled={!!editing} placeholder={t("groupInfo.codePlaceholder")} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="contact" label={t('groupInfo.contact')}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="phone" label={t('groupInfo.phone')} rules={[{ pattern: /^[\d\-+ ()]{5,20}$/, message: t('groupInfo.phoneInvalid') }]}>
              <Input maxLength={20} />
            </Form.Item>
          </Col>
          {(showParent || mode.kind === 'addChildren') && (
            <Col span={24}>
              <Form.Item name="parentId" label={t('groupInfo.parent')} rules={[{ required: true, message: t('groupInfo.parentRequired') }]}>
                <TreeSelect
                  disabled={mode.kind === 'addChildren'}
                  treeData={toGroupOptions(tree.data, editing?.id)}
                  treeDefaultExpandedKeys={parents.data ?? []}
                  key={parents.data?.join('-') ?? 'p'}
                  showSearch
                  treeNodeFilterProp="title"
                  popupMatchSelectWidth={false}
                />
              </Form.Item>
            </Col>
          )}
          <Col span={24}>
            <Form.Item name="address" label={t('groupInfo.address')}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="remark" label={t('groupInfo.remark')}>
              <Input.TextArea rows={3} maxLength={500} showCount />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
