import { SearchOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Input, Skeleton, Tag, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { carChannels, type VideoChannel } from '../../../api/fleet';
import type { GroupCarNode } from '../../../api/group';
import { channelKey, useMonitorStore } from './store';
import { buildVehicleTree, carIdOfKey, platesById, type VehicleTreeNode } from './vehicleTree';
import { toDataNodes, useHeight } from './VehicleTreePanel';
import { useChannelName } from './useChannelName';
import { useTreeExpanded } from './useTreeExpanded';

/**
 * Video channels per car (carVideoChannel/selectsome, loaded when a car is opened). Checked channels are
 * kept in the monitoring store; playing them is not built yet, and the panel says so.
 */
export function ChannelTreePanel({ source, loading }: { source: GroupCarNode[] | undefined; loading: boolean }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search);
  const [channels, setChannels] = useState<ReadonlyMap<number, VideoChannel[] | 'error'>>(new Map());
  const checkedList = useMonitorStore((s) => s.channelCheckList);
  const pairs = useMonitorStore((s) => s.carChannelPairs);
  const setChannelChecks = useMonitorStore((s) => s.setChannelChecks);
  const [boxRef, height] = useHeight<HTMLDivElement>();
  const plates = useMemo(() => platesById(source), [source]);
  const tree = useMemo(() => buildVehicleTree(source, { search: query }), [source, query]);
  const [expanded, setExpanded] = useTreeExpanded(tree.groupKeys, query);

  const channelName = useChannelName(channels);

  const { treeData, byKey } = useMemo(() => {
    const m = new Map<string, VehicleTreeNode>();
    const withChannels = (n: VehicleTreeNode): Partial<DataNode> => {
      if (n.type === 'group') return { checkable: false, selectable: false };
      const list = channels.get(n.id);
      return {
        checkable: false,
        selectable: false,
        isLeaf: Array.isArray(list) && list.length === 0,
        children: Array.isArray(list)
          ? list.map((c) => ({
              key: channelKey(n.id, c.channelNo),
              title: channelName(n.id, c.channelNo),
              isLeaf: true,
              disabled: !c.enabled,
              selectable: false,
            }))
          : undefined,
      };
    };
    return { treeData: toDataNodes(tree.nodes, m, withChannels), byKey: m };
  }, [tree, channels, channelName]);

  const load = async (node: { key: React.Key }) => {
    const id = carIdOfKey(node.key);
    if (id == null || channels.has(id)) return;
    let list: VideoChannel[] | 'error';
    try {
      list = await carChannels(id);
    } catch {
      list = 'error';
    }
    setChannels((m) => new Map(m).set(id, list));
  };

  return (
    <div className="tw-tree-panel" data-testid="channel-tree">
      <div className="tw-tree-tools">
        <Input allowClear size="small" prefix={<SearchOutlined />} placeholder={t('monitor.searchPlate')} value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <div className="tw-tree-box" ref={boxRef}>
        {loading ? (
          <Skeleton active paragraph={{ rows: 6 }} style={{ padding: 12 }} />
        ) : tree.carIds.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={query ? t('monitor.noMatch') : t('monitor.noVehicles')} />
        ) : (
          <Tree
            checkable
            checkStrictly
            blockNode
            height={height}
            treeData={treeData}
            loadData={load}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys)}
            checkedKeys={{ checked: [...checkedList], halfChecked: [] }}
            onCheck={(keys) => setChannelChecks((Array.isArray(keys) ? keys : keys.checked).map(String))}
            titleRender={(d) => {
              const n = byKey.get(String(d.key));
              if (!n) return <span className="tw-tree-channel">{String(d.title ?? '')}</span>;
              if (n.type === 'group') return <span className="tw-tree-group">{n.name}</span>;
              const state = channels.get(n.id);
              return (
                <span className="tw-tree-car">
                  <VideoCameraOutlined className="tw-tree-icon" />
                  <span className="tw-tree-plate">{n.name}</span>
                  {state === 'error' && <span className="tw-tree-meta">{t('monitor.channelsFailed')}</span>}
                  {Array.isArray(state) && state.length === 0 && <span className="tw-tree-meta">{t('monitor.noChannels')}</span>}
                </span>
              );
            }}
          />
        )}
      </div>
      <div className="tw-channel-selection" data-testid="channel-selection">
        <div className="tw-channel-head">
          <span>{t('monitor.channelsChecked', { n: pairs.length })}</span>
          {pairs.length > 0 && (
            <Button type="link" size="small" onClick={() => setChannelChecks([])}>
              {t('monitor.clear')}
            </Button>
          )}
        </div>
        {pairs.length > 0 && (
          <div className="tw-channel-tags">
            {pairs.slice(0, 12).map((p) => (
              <Tag key={channelKey(p.carId, p.channelNo)}>
                {plates.get(p.carId) ?? p.carId} · {channelName(p.carId, p.channelNo)}
              </Tag>
            ))}
            {pairs.length > 12 && <Tag>+{pairs.length - 12}</Tag>}
          </div>
        )}
        <Alert type="info" showIcon message={t('monitor.videoLater')} />
      </div>
    </div>
  );
}
