import { ApartmentOutlined, DeleteOutlined, EditOutlined, LinkOutlined, PictureOutlined, PlusOutlined, ShopOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Descriptions, Empty, Input, Modal, Row, Space, Spin, Table, Tag, Tree, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteGroup, findAllChildrenPage } from '../../../api/group';
import type { Group } from '../../../api/types';
import { useAppStore } from '../../../app/store';
import { AuthButton } from '../../../components/AuthButton';
import { BrandLogo } from '../../../components/BrandLogo';
import { confirmDelete } from '../../../components/confirmDelete';
import { BrandingForm } from './BrandingForm';
import { GroupForm, type GroupFormMode } from './GroupForm';
import { BindCarriersForm, CarrierTags, SalesCompanyForm } from './SalesCompany';
import { setSales } from './salesApi';
import { allIds, filterTree, findGroup, pathTo, useGroupTree } from './groupTree';
import { useDefaultPageSize } from '../../../app/prefs';

const muted = (v: string | null | undefined) => v || <span className="tw-muted">—</span>;

/** 组织管理: group tree with search; details and paged subtree of the selected group; add/edit/delete; title & logo. */
export default function GroupInfoPage() {
  const { t } = useTranslation();
  const api = App.useApp();
  const qc = useQueryClient();
  const session = useAppStore((s) => s.session);
  const tree = useGroupTree();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<number | null>(null);
  const [expanded, setExpanded] = useState<number[] | null>(null);
  const [form, setForm] = useState<GroupFormMode | null>(null);
  const [branding, setBranding] = useState<Group | null>(null);
  const defaultSize = useDefaultPageSize();
  const [paging, setPaging] = useState(() => ({ pageNum: 1, pageSize: defaultSize }));
  const [childName, setChildName] = useState('');
  const [salesForm, setSalesForm] = useState<Group | null>(null);
  const [binding, setBinding] = useState<Group | null>(null);

  const roots = tree.data ?? [];
  const selectedId = picked ?? roots[0]?.id ?? null;
  const selected = findGroup(roots, selectedId);
  const shown = useMemo(() => filterTree(tree.data, search), [tree.data, search]);
  const expandedKeys = search ? allIds(shown) : (expanded ?? roots.map((r) => r.id));
  const callerAtTop = roots.some((r) => r.id === session?.groupId && r.parentId == null);
  const onPath = (id: number) => !!session && pathTo(roots, session.groupId).includes(id);

  const children = useQuery({
    queryKey: ['groupChildren', selectedId, paging, childName],
    queryFn: () => findAllChildrenPage({ id: selectedId!, ...paging, ...(childName ? { name: childName } : {}) }),
    enabled: selectedId != null,
    placeholderData: keepPreviousData,
  });

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['groupTrees'] });
    void qc.invalidateQueries({ queryKey: ['groupChildren'] });
  };

  const remove = (g: Group) =>
    confirmDelete(api, {
      run: () => deleteGroup(g.id),
      onDone: () => {
        setPicked(g.parentId);
        qc.removeQueries({ queryKey: ['groupChildren', g.id] });
        void qc.invalidateQueries({ queryKey: ['groupTrees'] });
        void qc.invalidateQueries({ queryKey: ['groupChildren'], predicate: (q) => q.queryKey[1] !== g.id });
      },
    });

  const toggleSales = (g: Group) =>
    api.modal.confirm({
      title: t('common.prompt'),
      content: t(g.sales ? 'salesCompany.unflagConfirm' : 'salesCompany.flagConfirm', { name: g.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await setSales(g.id, !g.sales);
        void api.message.success(t('common.operationSuccess'));
        refresh();
        void qc.invalidateQueries({ queryKey: ['salesPairs'] });
      },
    });

  const selectGroup = (id: number) => {
    setPicked(id);
    setPaging((p) => ({ ...p, pageNum: 1 }));
  };

  return (
    <div className="tw-page">
      <Row gutter={12} wrap={false} style={{ alignItems: 'stretch' }}>
        <Col flex="300px">
          <Card
            variant="borderless"
            title={
              <Space>
                <ApartmentOutlined />
                {t('groupInfo.tree')}
              </Space>
            }
            extra={
              callerAtTop && (
                <AuthButton code="add">
                  <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => setForm({ kind: 'add' })}>
                    {t('menu.groupInfo-add')}
                  </Button>
                </AuthButton>
              )
            }
            style={{ height: '100%' }}
            styles={{ body: { padding: 12 } }}
          >
            <Input.Search allowClear placeholder={t('groupInfo.searchPlaceholder')} onChange={(e) => setSearch(e.target.value)} style={{ marginBottom: 8 }} />
            <div style={{ maxHeight: 'calc(100vh - 260px)', minHeight: 240, overflow: 'auto' }}>
              {tree.isLoading ? (
                <div style={{ textAlign: 'center', padding: 48 }}>
                  <Spin />
                </div>
              ) : shown.length ? (
                <Tree<{ key: number; title: string }>
                  blockNode
                  showLine
                  treeData={toNodes(shown)}
                  selectedKeys={selectedId != null ? [selectedId] : []}
                  expandedKeys={expandedKeys}
                  onExpand={(keys) => setExpanded(keys.map(Number))}
                  onSelect={(keys) => keys.length && selectGroup(Number(keys[0]))}
                />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(search ? 'groupInfo.noMatch' : 'common.empty')} />
              )}
            </div>
          </Card>
        </Col>
        <Col flex="auto" style={{ minWidth: 0 }}>
          {!selected ? (
            <Card variant="borderless">
              <Empty description={t('groupInfo.pickOne')} />
            </Card>
          ) : (
            <Space direction="vertical" size={12} style={{ width: '100%' }}>
              <Card
                variant="borderless"
                title={
                  <Space>
                    <BrandLogo src={selected.logo || `/themes/${selected.theme || session?.theme || 'tankcar'}/logo.svg`} size={24} alt={t('groupInfo.logo')} />
                    <span>{selected.name}</span>
                    <Tag>{selected.code}</Tag>
                    {selected.sales && (
                      <Tag color="gold" icon={<ShopOutlined />}>
                        {t('salesCompany.tag')}
                      </Tag>
                    )}
                  </Space>
                }
                extra={
                  <Space wrap>
                    <AuthButton code="addChildren">
                      <Button icon={<PlusOutlined />} onClick={() => setForm({ kind: 'addChildren', parent: selected })}>
                        {t('menu.groupInfo-addChildren')}
                      </Button>
                    </AuthButton>
                    <AuthButton code="edit">
                      <Button icon={<EditOutlined />} onClick={() => setForm({ kind: 'edit', group: selected })}>
                        {t('menu.groupInfo-edit')}
                      </Button>
                    </AuthButton>
                    <AuthButton code="sales">
                      <Button icon={<ShopOutlined />} onClick={() => setSalesForm(selected)}>
                        {t('salesCompany.add')}
                      </Button>
                      <Button onClick={() => toggleSales(selected)}>{t(selected.sales ? 'salesCompany.unflag' : 'salesCompany.flag')}</Button>
                      {selected.sales && (
                        <Button icon={<LinkOutlined />} onClick={() => setBinding(selected)}>
                          {t('salesCompany.bind')}
                        </Button>
                      )}
                    </AuthButton>
                    <AuthButton code="logo">
                      <Button icon={<PictureOutlined />} onClick={() => setBranding(selected)}>
                        {t('menu.groupInfo-logo')}
                      </Button>
                    </AuthButton>
                    <AuthButton code="delete">
                      <Button danger icon={<DeleteOutlined />} onClick={() => remove(selected)}>
                        {t('menu.groupInfo-delete')}
                      </Button>
                    </AuthButton>
                  </Space>
                }
              >
                <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small" labelStyle={{ minWidth: 80 }}>
                  <Descriptions.Item label={t('groupInfo.parent')}>{muted(findGroup(roots, selected.parentId)?.name)}</Descriptions.Item>
                  <Descriptions.Item label={t('groupInfo.contact')}>{muted(selected.contact)}</Descriptions.Item>
                  <Descriptions.Item label={t('groupInfo.phone')}>{muted(selected.phone)}</Descriptions.Item>
                  <Descriptions.Item label={t('groupInfo.address')}>{muted(selected.address)}</Descriptions.Item>
                  <Descriptions.Item label={t('groupInfo.brandTitle')}>{muted(selected.title)}</Descriptions.Item>
                  <Descriptions.Item label={t('groupInfo.theme')}>{selected.theme ? t(`groupInfo.themes.${selected.theme}`) : t('groupInfo.themeInherit')}</Descriptions.Item>
                  {selected.sales && (
                    <Descriptions.Item label={t('salesCompany.carriers')} span={3}>
                      <CarrierTags salesGroupId={selected.id} />
                    </Descriptions.Item>
                  )}
                  <Descriptions.Item label={t('groupInfo.remark')} span={3}>
                    {muted(selected.remark)}
                  </Descriptions.Item>
                </Descriptions>
              </Card>
              <Card
                variant="borderless"
                title={t('groupInfo.subtree')}
                extra={<Input.Search allowClear placeholder={t('groupInfo.name')} style={{ width: 220 }} onSearch={(v) => { setChildName(v.trim()); setPaging((p) => ({ ...p, pageNum: 1 })); }} />}
              >
                <Table<Group>
                  size="middle"
                  rowKey="id"
                  loading={children.isFetching}
                  dataSource={children.data?.list ?? []}
                  locale={{ emptyText: t('common.empty') }}
                  onRow={(g) => ({ onDoubleClick: () => selectGroup(g.id) })}
                  pagination={{
                    current: paging.pageNum,
                    pageSize: paging.pageSize,
                    total: children.data?.total ?? 0,
                    showSizeChanger: true,
                    showTotal: (total) => t('common.total', { total }),
                    onChange: (pageNum, pageSize) => setPaging({ pageNum, pageSize }),
                  }}
                  columns={[
                    { title: t('groupInfo.name'), dataIndex: 'name', key: 'name', ellipsis: true, render: (v: string, g) => <Typography.Link onClick={() => selectGroup(g.id)}>{v}</Typography.Link> },
                    { title: t('groupInfo.code'), dataIndex: 'code', key: 'code', width: 110 },
                    {
                      title: t('salesCompany.column'),
                      dataIndex: 'sales',
                      key: 'sales',
                      width: 110,
                      render: (v?: boolean) => (v ? <Tag color="gold">{t('salesCompany.tag')}</Tag> : muted(null)),
                    },
                    { title: t('groupInfo.parent'), key: 'parent', ellipsis: true, render: (_, g) => muted(findGroup(roots, g.parentId)?.name) },
                    { title: t('groupInfo.contact'), dataIndex: 'contact', key: 'contact', width: 120, render: muted },
                    { title: t('groupInfo.phone'), dataIndex: 'phone', key: 'phone', width: 140, render: muted },
                    { title: t('groupInfo.address'), dataIndex: 'address', key: 'address', ellipsis: true, render: muted },
                  ]}
                />
              </Card>
            </Space>
          )}
        </Col>
      </Row>
      {form && (
        <GroupForm
          mode={form}
          onClose={() => setForm(null)}
          onSaved={(g) => {
            setForm(null);
            refresh();
            selectGroup(g.id);
            if (form.kind !== 'edit') setExpanded((e) => [...(e ?? roots.map((r) => r.id)), ...(g.parentId != null ? [g.parentId] : [])]);
          }}
        />
      )}
      {salesForm && (
        <SalesCompanyForm
          parent={salesForm}
          onClose={() => setSalesForm(null)}
          onSaved={(g) => {
            setSalesForm(null);
            refresh();
            void qc.invalidateQueries({ queryKey: ['salesPairs'] });
            selectGroup(g.id);
          }}
        />
      )}
      {binding && (
        <BindCarriersForm
          sales={binding}
          onClose={() => setBinding(null)}
          onSaved={() => {
            setBinding(null);
            void qc.invalidateQueries({ queryKey: ['salesPairs'] });
          }}
        />
      )}
      <Modal open={!!branding} title={t('groupInfo.brandingTitle', { name: branding?.name ?? '' })} footer={null} width={640} onCancel={() => setBranding(null)} destroyOnHidden>
        {branding && (
          <BrandingForm
            group={branding}
            code="logo"
            onPath={onPath(branding.id)}
            onCancel={() => setBranding(null)}
            onSaved={() => {
              setBranding(null);
              refresh();
            }}
          />
        )}
      </Modal>
    </div>
  );
}

function toNodes(groups: readonly Group[]): { key: number; title: string; children?: { key: number; title: string }[] }[] {
  return groups.map((g) => ({ key: g.id, title: g.name, children: g.children?.length ? toNodes(g.children) : undefined }));
}
