import { useQuery } from '@tanstack/react-query';
import { App, Button, Col, Empty, Form, Input, Modal, Row, Space, Spin, Tree, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupSelect } from '../../../components/GroupSelect';
import { grantableTree, insertRole, roleDetail, updateRole } from '../../../api/role';
import type { Role } from '../../../api/types';
import { useAppStore } from '../../../app/store';
import { indexTree, resourceCodesOf, toggleCode, toTreeData } from './resourceTree';

interface RoleValues {
  name: string;
  groupId?: number;
  remark?: string;
}

/** Add/Edit role: name, group, remark and the grantable permission tree. */
export function RoleForm({ role, onClose, onSaved }: { role: Role | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<RoleValues>();
  const myGroup = useAppStore((s) => s.session?.groupId);
  const resources = useQuery({ queryKey: ['grantableTree'], queryFn: grantableTree, staleTime: 60_000 });
  const detail = useQuery({ queryKey: ['roleDetail', role?.id], queryFn: () => roleDetail(role!.id), enabled: !!role, gcTime: 0 });
  const idx = useMemo(() => indexTree(resources.data), [resources.data]);
  const treeData = useMemo(() => toTreeData(resources.data, (n) => t(`menu.${n.name}`, { defaultValue: n.title })), [resources.data, t]);
  const [checked, setChecked] = useState<string[]>([]);
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!role) form.setFieldsValue({ groupId: myGroup });
  }, [role, myGroup, form]);
  useEffect(() => {
    if (detail.data) {
      form.setFieldsValue({ name: detail.data.name, groupId: detail.data.groupId, remark: detail.data.remark });
      setChecked(resourceCodesOf(idx, detail.data.resourceCodes ?? []));
    }
  }, [detail.data, idx, form]);

  const modules = useMemo(() => (resources.data ?? []).map((n) => n.code), [resources.data]);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const body = { name: v.name.trim(), remark: v.remark?.trim() ?? '', groupId: v.groupId ?? myGroup ?? 0, resourceCodes: resourceCodesOf(idx, checked) };
      if (role) await updateRole({ ...body, id: role.id });
      else await insertRole(body);
      void message.success(t(role ? 'common.modifySuccess' : 'common.addSuccess'));
      onSaved();
    } catch {
      // server message shown by the client
    } finally {
      setSaving(false);
    }
  };

  const loading = resources.isLoading || (!!role && detail.isLoading);
  return (
    <Modal
      open
      title={t(role ? 'roleInfo.editTitle' : 'roleInfo.addTitle')}
      width={820}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: loading }}
      maskClosable={false}
      destroyOnHidden
    >
      <Form<RoleValues> form={form} name="roleForm" layout="vertical" colon={false} requiredMark>
        <Row gutter={24}>
          <Col span={10}>
            <Form.Item name="name" label={t('roleInfo.name')} rules={[{ required: true, whitespace: true, message: t('roleInfo.nameRequired') }, { max: 64, message: t('roleInfo.nameLength') }]}>
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item name="groupId" label={t('roleInfo.group')} rules={[{ required: true, message: t('roleInfo.groupRequired') }]}>
              <GroupSelect />
            </Form.Item>
            <Form.Item name="remark" label={t('roleInfo.remark')}>
              <Input.TextArea rows={4} maxLength={255} showCount />
            </Form.Item>
          </Col>
          <Col span={14}>
            <Form.Item
              label={
                <Space>
                  <span>{t('roleInfo.permissions')}</span>
                  <Typography.Text type="secondary">{t('roleInfo.checkedCount', { count: checked.length })}</Typography.Text>
                </Space>
              }
              required={false}
            >
              <div className="tw-role-tree" style={{ border: '1px solid var(--ant-color-border, #d9d9d9)', borderRadius: 8 }}>
                <Space style={{ padding: '6px 8px', borderBottom: '1px solid var(--ant-color-border-secondary, #f0f0f0)', width: '100%' }} size={4}>
                  <Button size="small" type="link" onClick={() => setChecked(idx.order.slice())}>
                    {t('roleInfo.checkAll')}
                  </Button>
                  <Button size="small" type="link" onClick={() => setChecked([])}>
                    {t('roleInfo.checkNone')}
                  </Button>
                  <Button size="small" type="link" onClick={() => setExpanded(idx.order.filter((c) => (idx.children.get(c) ?? []).length > 0))}>
                    {t('roleInfo.expandAll')}
                  </Button>
                  <Button size="small" type="link" onClick={() => setExpanded([])}>
                    {t('roleInfo.collapseAll')}
                  </Button>
                </Space>
                <div style={{ height: 360, overflow: 'auto', padding: 8 }}>
                  {loading ? (
                    <div style={{ textAlign: 'center', paddingTop: 120 }}>
                      <Spin />
                    </div>
                  ) : treeData.length ? (
                    <Tree
                      checkable
                      checkStrictly
                      selectable={false}
                      treeData={treeData}
                      expandedKeys={expanded ?? modules}
                      onExpand={(keys) => setExpanded(keys.map(String))}
                      checkedKeys={{ checked, halfChecked: [] }}
                      onCheck={(_keys, info) => setChecked((c) => toggleCode(idx, c, String(info.node.key), info.checked))}
                    />
                  ) : (
                    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('roleInfo.noResources')} />
                  )}
                </div>
              </div>
              <Typography.Paragraph type="secondary" style={{ margin: '6px 0 0', fontSize: 12 }}>
                {t('roleInfo.treeHint')}
              </Typography.Paragraph>
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
