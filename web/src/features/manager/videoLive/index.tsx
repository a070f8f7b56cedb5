import { PlayCircleOutlined, SearchOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Input, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { carChannels } from '../../../api/fleet';
import { groupCarTree } from '../../../api/group';
import { buildVehicleTree, carIdOfKey, type VehicleTreeNode } from '../monitoring/vehicleTree';
import { toDataNodes, useHeight } from '../monitoring/VehicleTreePanel';
import { channelsToShow, gridSide, MAX_TILES, pickTile, sameTarget, tileCount, type Layout } from './logic';
import { VideoTile, type TileSpec } from './VideoTile';
import '../monitoring/monitoring.css';
import './videoLive.css';
import { useChannelName } from '../monitoring/useChannelName';
import { useWallStreams } from './useWallStreams';
import { TreeBox, WallHeader } from './WallChrome';
import { useTreeExpanded } from '../monitoring/useTreeExpanded';

const chanKey = (carId: number, no: number) => `v-${carId}-${no}`;
function parseChanKey(key: React.Key): { carId: number; channelNo: number } | null {
  const m = /^v-(\d+)-(\d+)$/.exec(String(key));
  return m ? { carId: Number(m[1]), channelNo: Number(m[2]) } : null;
}

type Channels = ReturnType<typeof channelsToShow>;

/** Live video (manager/videoLive, issue 17): the cars' channels on the left, a wall of 1/4/9/16 tiles. */
export default function VideoLivePage() {
  const { t } = useTranslation();
  const tree = useQuery({ queryKey: ['videoLive', 'groupCarTree'], queryFn: () => groupCarTree(), staleTime: 30_000 });
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search);
  const [channels, setChannels] = useState<ReadonlyMap<number, Channels | 'error'>>(new Map());
  const [boxRef, height] = useHeight<HTMLDivElement>();
  const vtree = useMemo(() => buildVehicleTree(tree.data, { search: query }), [tree.data, query]);
  const [expanded, setExpanded] = useTreeExpanded(vtree.groupKeys, query);

  const [layout, setLayout] = useState<Layout>(4);
  const [tiles, setTiles] = useState<(TileSpec | null)[]>(() => Array<TileSpec | null>(MAX_TILES).fill(null));
  const [selected, setSelected] = useState<number | null>(null);
  const { stopLater, onOpened, audioTile, setAudioTile, audioHandlers } = useWallStreams();
  const lastRef = useRef(-1);
  const nextId = useRef(1);
  const count = tileCount(layout);

  const channelName = useChannelName(channels);

  const play = useCallback(
    (carId: number, channelNo: number, plate: string) => {
      const target = { carId, channelNo };
      const i = pickTile(tiles, count, target, selected, lastRef.current);
      const old = tiles[i];
      if (sameTarget(old, target)) {
        setSelected(i);
        return;
      }
      const next = [...tiles];
      next[i] = { id: nextId.current++, carId, channelNo, plate, channelName: channelName(carId, channelNo) };
      lastRef.current = i;
      setTiles(next);
      setSelected(null);
      if (audioTile === i) setAudioTile(null);
      if (old) stopLater([old], next);
    },
    [tiles, count, selected, audioTile, setAudioTile, channelName, stopLater],
  );

  const close = useCallback(
    (i: number) => {
      const old = tiles[i];
      if (!old) return;
      const next = [...tiles];
      next[i] = null;
      setTiles(next);
      if (audioTile === i) setAudioTile(null);
      stopLater([old], next);
    },
    [tiles, audioTile, setAudioTile, stopLater],
  );

  const closeAll = () => {
    const old = tiles.filter((x): x is TileSpec => !!x);
    const next = Array<TileSpec | null>(MAX_TILES).fill(null);
    setTiles(next);
    setAudioTile(null);
    setSelected(null);
    lastRef.current = -1;
    stopLater(old, next);
  };

  const changeLayout = (l: Layout) => {
    const n = tileCount(l);
    const dropped = tiles.slice(n).filter((x): x is TileSpec => !!x);
    const next = tiles.map((x, i) => (i < n ? x : null));
    setLayout(l);
    setTiles(next);
    if (audioTile != null && audioTile >= n) setAudioTile(null);
    if (selected != null && selected >= n) setSelected(null);
    if (lastRef.current >= n) lastRef.current = n - 1;
    stopLater(dropped, next);
  };

  const loadChannels = async (node: { key: React.Key }) => {
    const id = carIdOfKey(node.key);
    if (id == null || channels.has(id)) return;
    let list: Channels | 'error';
    try {
      list = channelsToShow(await carChannels(id));
    } catch {
      list = 'error';
    }
    setChannels((m) => new Map(m).set(id, list));
  };

  const playing = useMemo(() => new Set(tiles.slice(0, count).filter((x): x is TileSpec => !!x).map((x) => chanKey(x.carId, x.channelNo))), [tiles, count]);

  const { treeData, byKey } = useMemo(() => {
    const m = new Map<string, VehicleTreeNode>();
    const extra = (n: VehicleTreeNode): Partial<DataNode> => {
      if (n.type === 'group') return { selectable: false };
      const list = channels.get(n.id);
      return {
        isLeaf: list === 'error' || (Array.isArray(list) && list.length === 0),
        children: Array.isArray(list)
          ? list.map((c) => ({ key: chanKey(n.id, c.channelNo), title: c.name || t('monitor.channelNo', { n: c.channelNo }), isLeaf: true, disabled: !c.enabled }))
          : undefined,
      };
    };
    return { treeData: toDataNodes(vtree.nodes, m, extra), byKey: m };
  }, [vtree, channels, t]);

  const plateOf = (carId: number) => byKey.get(`c-${carId}`)?.name ?? String(carId);
  const shown = tiles.slice(0, count).filter(Boolean).length;
  const side = gridSide(layout);

  return (
    <div className="tw-monitor tw-vl" data-testid="video-live-page">
      <WallHeader prefix="vl" title={t('menu.videoLive')} shown={shown} layout={layout} onLayout={changeLayout} onCloseAll={closeAll} />
      <div className="tw-monitor-body">
        <aside className="tw-monitor-side">
          <div className="tw-tree-panel" data-testid="vl-tree">
            <div className="tw-tree-tools">
              <Input allowClear size="small" prefix={<SearchOutlined />} placeholder={t('monitor.searchPlate')} value={search} onChange={(e) => setSearch(e.target.value)} data-testid="vl-search" />
            </div>
            <div className="tw-strip">{t('videoLive.treeHint')}</div>
            <TreeBox boxRef={boxRef} pending={tree.isPending} empty={vtree.carIds.length === 0} searching={!!query}>
              <Tree
                blockNode
                height={height}
                treeData={treeData}
                loadData={loadChannels}
                expandedKeys={expanded}
                onExpand={(keys) => setExpanded(keys)}
                selectedKeys={[]}
                onSelect={(_, info) => {
                  const key = String(info.node.key);
                  const ch = parseChanKey(key);
                  if (ch) return play(ch.carId, ch.channelNo, plateOf(ch.carId));
                  if (carIdOfKey(key) != null) setExpanded((ks) => (ks.includes(key) ? ks.filter((k) => k !== key) : [...ks, key]));
                }}
                titleRender={(d) => {
                  const key = String(d.key);
                  const ch = parseChanKey(key);
                  if (ch) {
                    const list = channels.get(ch.carId);
                    const fallback = Array.isArray(list) && list[0]?.fallback;
                    return (
                      <span className={`tw-vl-chan${playing.has(key) ? ' playing' : ''}`} data-testid={`vl-channel-${ch.carId}-${ch.channelNo}`}>
                        <PlayCircleOutlined className="tw-tree-icon" />
                        <span>{String(d.title ?? '')}</span>
                        {fallback && <span className="tw-tree-meta">{t('videoLive.defaultChannel')}</span>}
                        {playing.has(key) && <span className="tw-tree-meta tw-vl-live">{t('videoLive.live')}</span>}
                      </span>
                    );
                  }
                  const n = byKey.get(key);
                  if (!n) return <span>{String(d.title ?? '')}</span>;
                  if (n.type === 'group') return <span className="tw-tree-group">{n.name} <span className="tw-tree-meta">{n.count}</span></span>;
                  const state = channels.get(n.id);
                  return (
                    <span className="tw-tree-car" data-testid={`vl-car-${n.id}`}>
                      <VideoCameraOutlined className="tw-tree-icon" />
                      <span className="tw-tree-plate">{n.name}</span>
                      {state === 'error' && <span className="tw-tree-meta">{t('monitor.channelsFailed')}</span>}
                    </span>
                  );
                }}
              />
            </TreeBox>
          </div>
        </aside>
        <main className="tw-vl-wall" data-testid="vl-wall" data-layout={layout} style={{ gridTemplateColumns: `repeat(${side}, 1fr)`, gridTemplateRows: `repeat(${side}, 1fr)` }}>
          {tiles.slice(0, count).map((spec, i) => (
            <VideoTile
              key={spec ? `s${spec.id}` : `e${i}`}
              index={i}
              spec={spec}
              selected={selected === i}
              audioOn={audioTile === i}
              onSelect={() => setSelected((s) => (s === i ? null : i))}
              onClose={() => close(i)}
              onAudio={audioHandlers[i]}
              onOpened={onOpened}
            />
          ))}
          {shown === 0 && (
            <div className="tw-vl-empty" data-testid="vl-empty">
              <VideoCameraOutlined />
              <span>{t('videoLive.empty')}</span>
            </div>
          )}
        </main>
      </div>
    </div>
  );
}
