import { PauseOutlined, PushpinFilled, PushpinOutlined, SearchOutlined, StopOutlined, SyncOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Select, Switch, Tooltip, Tree } from 'antd';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { carChannels, type VideoChannel } from '../../../api/fleet';
import { groupCarTree } from '../../../api/group';
import { liveConnection, onLiveMessage } from '../../../app/live';
import { decodePayload, showLiveMessagesElsewhere } from '../../../app/liveDialogs';
import { isPagePermitted } from '../../../app/pages';
import { usePermittedMenu } from '../../../app/shell/useMenu';
import { useAppStore } from '../../../app/store';
import { zoneTime } from '../../../lib/zone';
import { ROMAN } from '../../police/common/alarmUi';
import { buildVehicleTree, carIdOfKey, type VehicleTreeNode } from '../monitoring/vehicleTree';
import { toDataNodes, useHeight } from '../monitoring/VehicleTreePanel';
import { gridSide, MAX_TILES, tileCount, type Layout } from '../videoLive/logic';
import { useWallStreams } from '../videoLive/useWallStreams';
import { VideoTile, type TileSpec } from '../videoLive/VideoTile';
import { TreeBox, WallHeader } from '../videoLive/WallChrome';
import { alarmOfMessage, displayOrder, gone, INTERVALS, placeAlarm, rotationOrder, rotationStep, type Camera, type Counter, type Slot } from './wall';
import '../monitoring/monitoring.css';
import '../videoLive/videoLive.css';
import './videoMonitor.css';
import { useTreeExpanded } from '../monitoring/useTreeExpanded';

type Rotation = 'off' | 'running' | 'paused';
const emptyWall = () => Array<Slot | null>(MAX_TILES).fill(null);

/** Video monitoring (manager/videoMonitor, issue 17): a wall that follows alarms and rotates through chosen cars. */
export default function VideoMonitorPage() {
  const { t, i18n } = useTranslation();
  const userId = useAppStore((s) => s.session?.userId);
  const { modules } = usePermittedMenu();
  const alarmsPushed = isPagePermitted({ name: 'policeMsg', path: '/police/policeMsg' }, modules);
  const tree = useQuery({ queryKey: ['videoMonitor', 'groupCarTree'], queryFn: () => groupCarTree(), staleTime: 30_000 });
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search);
  const [boxRef, height] = useHeight<HTMLDivElement>();
  const vtree = useMemo(() => buildVehicleTree(tree.data, { search: query }), [tree.data, query]);
  const full = useMemo(() => buildVehicleTree(tree.data, {}), [tree.data]);
  const [expanded, setExpanded] = useTreeExpanded(vtree.groupKeys, query);
  const [checked, setChecked] = useState<number[]>([]);

  const [layout, setLayout] = useState<Layout>(4);
  const count = tileCount(layout);
  const [wall, setWallState] = useState<(Slot | null)[]>(emptyWall);
  const wallRef = useRef(wall);
  const countRef = useRef(count);
  countRef.current = count;
  const counter = useRef<Counter>({ seq: 0, id: 0 });
  const [selected, setSelected] = useState<number | null>(null);
  const { stopLater, onOpened, audioTile, setAudioTile, audioHandlers } = useWallStreams();

  const [follow, setFollow] = useState(true);
  const followRef = useRef(follow);
  followRef.current = follow;
  const [rotation, setRotation] = useState<Rotation>('off');
  const [interval, setIntervalS] = useState<number>(20);
  const [order, setOrder] = useState<Camera[]>([]);
  const cursor = useRef(0);
  const [loadingCams, setLoadingCams] = useState(false);
  const [camsFailed, setCamsFailed] = useState(false);
  const [noCams, setNoCams] = useState(false);

  /** Sets the wall and stops the streams of the slots that left it. */
  const setWall = useCallback(
    (next: (Slot | null)[], replaced: Slot[]) => {
      const before = wallRef.current;
      wallRef.current = next;
      setWallState(next);
      setAudioTile((a) => (a != null && before[a] && next[a]?.id !== before[a]?.id ? null : a));
      stopLater(gone(replaced, next), next);
    },
    [stopLater, setAudioTile],
  );

  // the cars' channels, asked once per car (a car without enabled channels has no video)
  const channelCache = useRef(new Map<number, Promise<VideoChannel[]>>());
  const channelsOf = useCallback((carId: number) => {
    let p = channelCache.current.get(carId);
    if (!p) {
      p = carChannels(carId);
      channelCache.current.set(carId, p);
      p.catch(() => channelCache.current.delete(carId));
    }
    return p;
  }, []);

  // the live alarm pushes (msg/user/{id}): the live connection runs on this full-screen page too
  useEffect(() => {
    if (userId != null) liveConnection.online(userId);
  }, [userId]);
  // while the wall follows alarms, it shows them: no alarm dialog over the wall (help requests still pop up)
  useEffect(() => showLiveMessagesElsewhere((d, topic) => followRef.current && topic.startsWith('msg') && d.kind === 'json' && d.message.key === 'alarm'), []);
  const langRef = useRef(i18n.language);
  langRef.current = i18n.language;
  useEffect(
    () =>
      onLiveMessage((topic, payload) => {
        if (!followRef.current || !topic.startsWith('msg')) return;
        const d = decodePayload(payload);
        if (d.kind !== 'json') return;
        const alarm = alarmOfMessage(d.message, langRef.current);
        if (!alarm) return;
        void channelsOf(alarm.carId).then(
          (chs) => {
            const cams = rotationOrder([{ carId: alarm.carId, plate: alarm.plate, channels: chs }]);
            if (cams.length === 0 || !followRef.current) return;
            const r = placeAlarm(wallRef.current, countRef.current, alarm, cams, counter.current);
            setWall(r.wall, r.replaced);
          },
          () => undefined,
        );
      }),
    [channelsOf, setWall],
  );

  // rotation: one step now, then one per interval while running
  const step = useCallback(
    (cams: readonly Camera[]) => {
      const r = rotationStep(wallRef.current, countRef.current, cams, cursor.current, counter.current);
      cursor.current = r.cursor;
      setWall(r.wall, r.replaced);
    },
    [setWall],
  );
  useEffect(() => {
    if (rotation !== 'running' || order.length === 0) return;
    const h = window.setInterval(() => step(order), interval * 1000);
    return () => window.clearInterval(h);
  }, [rotation, order, interval, step]);

  const plates = useMemo(() => {
    const m = new Map<number, string>();
    const walk = (ns: readonly VehicleTreeNode[]) =>
      ns.forEach((n) => {
        if (n.type === 'car') m.set(n.id, n.name);
        if (n.children) walk(n.children);
      });
    walk(full.nodes);
    return m;
  }, [full.nodes]);

  const startRotation = async () => {
    const ids = full.carIds.filter((id) => checked.includes(id));
    setLoadingCams(true);
    setCamsFailed(false);
    const lists = await Promise.all(ids.map((id) => channelsOf(id).then((c) => c, () => null)));
    setLoadingCams(false);
    setCamsFailed(lists.some((l) => l === null));
    setNoCams(false);
    const cams = rotationOrder(ids.map((id, i) => ({ carId: id, plate: plates.get(id) ?? String(id), channels: lists[i] ?? [] })));
    setOrder(cams);
    cursor.current = 0;
    if (cams.length === 0) {
      setNoCams(true);
      setRotation('off');
      return;
    }
    setRotation('running');
    step(cams);
  };

  const stopRotation = () => {
    setRotation('off');
    const next = wallRef.current.map((s) => (s && s.source === 'rotation' && !s.pinned ? null : s));
    setWall(next, wallRef.current.filter((s): s is Slot => !!s && !next.includes(s)));
  };

  const close = (i: number) => {
    const old = wallRef.current[i];
    if (!old) return;
    const next = [...wallRef.current];
    next[i] = null;
    setWall(next, [old]);
  };
  const closeAll = () => {
    setSelected(null);
    setWall(emptyWall(), wallRef.current.filter((s): s is Slot => !!s));
  };
  const togglePin = (i: number) => {
    const s = wallRef.current[i];
    if (!s) return;
    const next = [...wallRef.current];
    next[i] = { ...s, pinned: !s.pinned };
    setWall(next, []);
  };
  const changeLayout = (l: Layout) => {
    const n = tileCount(l);
    const dropped = wallRef.current.slice(n).filter((s): s is Slot => !!s);
    setLayout(l);
    if (selected != null && selected >= n) setSelected(null);
    setWall(
      wallRef.current.map((s, i) => (i < n ? s : null)),
      dropped,
    );
  };

  // one TileSpec per slot id: VideoTile restarts its stream on a new spec object
  const specs = useRef(new Map<number, TileSpec>());
  const specOf = (s: Slot): TileSpec => {
    let spec = specs.current.get(s.id);
    if (!spec) {
      spec = { id: s.id, carId: s.carId, channelNo: s.channelNo, plate: s.plate, channelName: s.channelName };
      specs.current.set(s.id, spec);
    }
    return spec;
  };
  useEffect(() => {
    const live = new Set(wall.map((s) => s?.id));
    for (const id of specs.current.keys()) if (!live.has(id)) specs.current.delete(id);
  }, [wall]);

  const grid = displayOrder(wall, count);
  const shown = wall.slice(0, count).filter(Boolean).length;
  const side = gridSide(layout);
  const carIdsChecked = full.carIds.filter((id) => checked.includes(id));

  const { treeData, byKey } = useMemo(() => {
    const m = new Map<string, VehicleTreeNode>();
    return { treeData: toDataNodes(vtree.nodes, m, (n) => (n.type === 'car' ? { isLeaf: true } : {})), byKey: m };
  }, [vtree]);
  const checkedKeys = useMemo(() => checked.map((id) => `c-${id}`), [checked]);

  const emptyText = rotation !== 'off' ? t('videoMonitor.waitingRotation') : follow ? (alarmsPushed ? t('videoMonitor.waiting') : t('videoMonitor.noAlarmPush')) : t('videoMonitor.rotationHint');

  return (
    <div className="tw-monitor tw-vl tw-vm" data-testid="video-monitor-page">
      <WallHeader
        prefix="vm"
        title={t('menu.videoMonitor')}
        shown={shown}
        layout={layout}
        onLayout={changeLayout}
        onCloseAll={closeAll}
        tools={
          <Tooltip title={t('videoMonitor.followHint')}>
            <label className="tw-station-toggle">
              <Switch size="small" checked={follow} onChange={setFollow} data-testid="vm-follow" />
              <span>{t('videoMonitor.followAlarms')}</span>
            </label>
          </Tooltip>
        }
      />
      <div className="tw-monitor-body">
        <aside className="tw-monitor-side">
          <div className="tw-tree-panel" data-testid="vm-tree">
            <div className="tw-vm-rotation" data-testid="vm-rotation">
              <div className="tw-vm-rotation-row">
                <strong>{t('videoMonitor.rotation')}</strong>
                <span className="tw-vm-interval-label">{t('videoMonitor.intervalLabel')}</span>
                <Select
                  size="small"
                  value={interval}
                  onChange={setIntervalS}
                  options={INTERVALS.map((n) => ({ value: n, label: t('videoMonitor.interval', { n }) }))}
                  style={{ width: 84 }}
                  data-testid="vm-interval"
                />
              </div>
              <div className="tw-vm-rotation-row">
                {rotation === 'off' ? (
                  <Button size="small" type="primary" icon={<SyncOutlined />} disabled={carIdsChecked.length === 0} loading={loadingCams} onClick={() => void startRotation()} data-testid="vm-start">
                    {t('videoMonitor.start')}
                  </Button>
                ) : (
                  <>
                    <Button size="small" icon={rotation === 'running' ? <PauseOutlined /> : <SyncOutlined />} onClick={() => setRotation(rotation === 'running' ? 'paused' : 'running')} data-testid="vm-pause">
                      {rotation === 'running' ? t('videoMonitor.pause') : t('videoMonitor.resume')}
                    </Button>
                    <Button size="small" icon={<StopOutlined />} onClick={stopRotation} data-testid="vm-stop">
                      {t('videoMonitor.stop')}
                    </Button>
                  </>
                )}
              </div>
              <div className="tw-vm-rotation-note" data-testid="vm-rotation-note">
                {rotation !== 'off'
                  ? `${t('videoMonitor.chosen', { cars: new Set(order.map((c) => c.carId)).size, cams: order.length })}${rotation === 'paused' ? ` · ${t('videoMonitor.paused')}` : ''}`
                  : noCams
                    ? t('videoMonitor.noCameras')
                    : t('videoMonitor.rotationHint')}
                {camsFailed && <div className="tw-vm-warn">{t('videoMonitor.channelsFailed')}</div>}
              </div>
            </div>
            <div className="tw-tree-tools">
              <Input allowClear size="small" prefix={<SearchOutlined />} placeholder={t('monitor.searchPlate')} value={search} onChange={(e) => setSearch(e.target.value)} data-testid="vm-search" />
            </div>
            <TreeBox boxRef={boxRef} pending={tree.isPending} empty={vtree.carIds.length === 0} searching={!!query}>
              <Tree
                blockNode
                checkable
                height={height}
                treeData={treeData}
                expandedKeys={expanded}
                onExpand={(keys) => setExpanded(keys)}
                checkedKeys={checkedKeys}
                selectedKeys={[]}
                onCheck={(keys) => {
                  const list = Array.isArray(keys) ? keys : keys.checked;
                  // the keys of the cars shown now replace theirs; cars hidden by the search stay as they were
                  const shownIds = new Set(vtree.carIds);
                  const now = list.map((k) => carIdOfKey(k)).filter((id): id is number => id != null);
                  setChecked((old) => [...new Set([...old.filter((id) => !shownIds.has(id)), ...now])]);
                }}
                titleRender={(d) => {
                  const n = byKey.get(String(d.key));
                  if (!n) return <span>{String(d.title ?? '')}</span>;
                  if (n.type === 'group') return <span className="tw-tree-group">{n.name} <span className="tw-tree-meta">{n.count}</span></span>;
                  return (
                    <span className="tw-tree-car" data-testid={`vm-car-${n.id}`}>
                      <VideoCameraOutlined className="tw-tree-icon" />
                      <span className="tw-tree-plate">{n.name}</span>
                    </span>
                  );
                }}
              />
            </TreeBox>
          </div>
        </aside>
        <main className="tw-vl-wall" data-testid="vm-wall" data-layout={layout} style={{ gridTemplateColumns: `repeat(${side}, 1fr)`, gridTemplateRows: `repeat(${side}, 1fr)` }}>
          {wall.slice(0, count).map((s, i) => (
            <VideoTile
              key={s ? `s${s.id}` : `e${i}`}
              index={i}
              spec={s ? specOf(s) : null}
              selected={selected === i}
              audioOn={audioTile === i}
              onSelect={() => setSelected((x) => (x === i ? null : i))}
              onClose={() => close(i)}
              onAudio={audioHandlers[i]}
              onOpened={onOpened}
              order={grid[i]}
              className={s ? `tw-vm-src-${s.source}${s.pinned ? ' pinned' : ''}` : undefined}
              info={
                s ? (
                  s.alarm ? (
                    <span className="tw-vm-alarm" data-testid={`vm-alarm-${i}`} data-alarm={s.alarm.id}>
                      {t('alarm.levelN', { n: ROMAN[s.alarm.level] ?? s.alarm.level })} {t('videoMonitor.alarmAt', { type: s.alarm.typeName, time: zoneTime(s.alarm.at).format('MM-DD HH:mm:ss') })}
                    </span>
                  ) : (
                    <span className="tw-vm-rot">{t('videoMonitor.rotationTile')}</span>
                  )
                ) : undefined
              }
              actions={
                s ? (
                  <Tooltip title={s.pinned ? t('videoMonitor.unpin') : t('videoMonitor.pin')}>
                    <Button
                      type="text"
                      size="small"
                      aria-label={s.pinned ? t('videoMonitor.unpin') : t('videoMonitor.pin')}
                      icon={s.pinned ? <PushpinFilled /> : <PushpinOutlined />}
                      className={s.pinned ? 'on' : ''}
                      onClick={() => togglePin(i)}
                      data-testid={`vm-pin-${i}`}
                    />
                  </Tooltip>
                ) : undefined
              }
            />
          ))}
          {shown === 0 && (
            <div className="tw-vl-empty" data-testid="vm-empty">
              <VideoCameraOutlined />
              <span>{emptyText}</span>
            </div>
          )}
        </main>
      </div>
    </div>
  );
}
