import { SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Result, Select, Skeleton, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupCarNode } from '../../../api/group';
import type { MapCar } from '../../../api/monitor';
import { isValidCoords } from '../../../lib/coords';
import { COUNT_CODES, countCodeColor, matchesCode, statusName, vehicleColor, type CountCode } from '../../../lib/vehicleColors';
import { useMonitorStore } from './store';
import { buildVehicleTree, carIdOfKey, carKey, type VehicleTreeNode } from './vehicleTree';
import { useTreeExpanded } from './useTreeExpanded';

/** Height of an element, followed as it resizes (antd's virtual tree needs a number). */
export function useHeight<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T | null>(null);
  const [h, setH] = useState(400);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setH(Math.max(120, Math.floor(el.getBoundingClientRect().height)));
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, h];
}

/** antd tree data of the vehicle tree (titles are drawn by titleRender, only for the rows in view). */
export function toDataNodes(nodes: readonly VehicleTreeNode[], byKey: Map<string, VehicleTreeNode>, extra?: (n: VehicleTreeNode) => Partial<DataNode>): DataNode[] {
  return nodes.map((n) => {
    byKey.set(n.key, n);
    return {
      key: n.key,
      title: n.name,
      isLeaf: n.isLeaf,
      children: n.children ? toDataNodes(n.children, byKey, extra) : undefined,
      ...extra?.(n),
    };
  });
}

/** Status word of a car in the tree: 未定位 without a fix, speed in transit, else its state. */
export function CarStatusText({ car }: { car: MapCar | undefined }) {
  const { t } = useTranslation();
  if (!car) return <span className="tw-tree-meta">—</span>;
  if (!isValidCoords(car.lng, car.lat)) return <span className="tw-tree-meta tw-not-located">{t('common.notLocated')}</span>;
  const s = statusName(car);
  if (car.code === 4) return <span className="tw-tree-meta">{t('monitor.kmh', { speed: car.speed })}</span>;
  return <span className="tw-tree-meta">{t(`monitor.status.${s}`)}</span>;
}

export interface VehicleTreePanelProps {
  source: GroupCarNode[] | undefined;
  loading: boolean;
  error: boolean;
  onRetry: () => void;
  /** A car was clicked in the tree. */
  onPick: (carId: number) => void;
}

/**
 * Vehicles by group, with plate search and status filter. Checking a car adds it to the map, unchecking
 * removes it; checking a group checks every car it shows (spec §4).
 */
export function VehicleTreePanel({ source, loading, error, onRetry, onPick }: VehicleTreePanelProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search);
  const cars = useMonitorStore((s) => s.cars);
  const code = useMonitorStore((s) => s.headerCode);
  const setCode = useMonitorStore((s) => s.setHeaderCode);
  const checked = useMonitorStore((s) => s.checkedCarIds);
  const applyTreeChecks = useMonitorStore((s) => s.applyTreeChecks);
  const selectedKey = useMonitorStore((s) => s.treeNodeId);
  const [boxRef, height] = useHeight<HTMLDivElement>();

  // The ids matching the status filter, as a string: the tree is rebuilt only when that set changes,
  // not on every live update.
  const matchKey = useMemo(() => {
    if (code == null || code === 8) return '';
    const ids: number[] = [];
    for (const c of cars.values()) if (matchesCode(c, code)) ids.push(c.carId);
    return ids.sort((a, b) => a - b).join(',');
  }, [cars, code]);

  const tree = useMemo(() => {
    const set = code == null || code === 8 ? null : new Set(matchKey ? matchKey.split(',').map(Number) : []);
    return buildVehicleTree(source, { search: query, match: set ? (id) => set.has(id) : undefined });
  }, [source, query, matchKey, code]);

  // the search narrows the map as well (the checked cars the tree still shows); no search, no narrowing
  const setSearchedCars = useMonitorStore((s) => s.setSearchedCars);
  const searching = query.trim() !== '';
  useEffect(() => setSearchedCars(searching ? tree.carIds : null), [searching, tree.carIds, setSearchedCars]);
  useEffect(() => () => setSearchedCars(null), [setSearchedCars]);

  const [expanded, setExpanded] = useTreeExpanded(tree.groupKeys, `${query}|${code ?? ''}`);

  const treeRef = useRef<{ scrollTo: (o: { key: React.Key; align?: 'top' | 'bottom' | 'auto' }) => void } | null>(null);
  useEffect(() => {
    if (selectedKey) treeRef.current?.scrollTo({ key: selectedKey, align: 'auto' });
  }, [selectedKey]);

  const { treeData, byKey } = useMemo(() => {
    const m = new Map<string, VehicleTreeNode>();
    return { treeData: toDataNodes(tree.nodes, m), byKey: m };
  }, [tree]);

  const checkedKeys = useMemo(() => tree.carIds.filter((id) => checked.has(id)).map(carKey), [tree.carIds, checked]);
  const visibleChecked = checkedKeys.length;

  const render = (n: VehicleTreeNode): ReactNode => {
    if (n.type === 'group') {
      return (
        <span className="tw-tree-group">
          {n.name} <span className="tw-tree-count">({n.count})</span>
        </span>
      );
    }
    const car = cars.get(n.id);
    return (
      <span className="tw-tree-car" data-testid={`tree-car-${n.id}`}>
        <span className="tw-dot" style={{ background: vehicleColor(car) }} />
        <span className="tw-tree-plate">{n.name}</span>
        <CarStatusText car={car} />
      </span>
    );
  };

  let body: ReactNode;
  if (loading) body = <Skeleton active paragraph={{ rows: 8 }} style={{ padding: 12 }} />;
  else if (error)
    body = (
      <Result
        status="warning"
        title={t('monitor.treeFailed')}
        extra={
          <Button size="small" onClick={onRetry}>
            {t('common.refresh')}
          </Button>
        }
      />
    );
  else if (tree.nodes.length === 0 || (tree.carIds.length === 0 && !query && code == null))
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={query || code != null ? t('monitor.noMatch') : t('monitor.noVehicles')} />;
  else
    body = (
      <Tree
        ref={treeRef as never}
        checkable
        blockNode
        height={height}
        treeData={treeData}
        titleRender={(d) => {
          const n = byKey.get(String(d.key));
          return n ? render(n) : String(d.title ?? '');
        }}
        checkedKeys={checkedKeys}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys)}
        selectedKeys={selectedKey ? [selectedKey] : []}
        onCheck={(keys) => {
          const list = Array.isArray(keys) ? keys : keys.checked;
          const ids: number[] = [];
          for (const k of list) {
            const id = carIdOfKey(k);
            if (id != null) ids.push(id);
          }
          applyTreeChecks(tree.carIds, ids);
        }}
        onSelect={(_, info) => {
          const id = carIdOfKey(info.node.key);
          if (id != null) onPick(id);
        }}
      />
    );

  return (
    <div className="tw-tree-panel" data-testid="vehicle-tree">
      <div className="tw-tree-tools">
        <Input
          allowClear
          size="small"
          prefix={<SearchOutlined />}
          placeholder={t('monitor.searchPlate')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="vehicle-search"
        />
        <Select<CountCode | 0>
          size="small"
          value={code ?? 0}
          onChange={(v) => setCode(v === 0 || v === 8 ? null : v)}
          style={{ width: 128 }}
          popupMatchSelectWidth={false}
          data-testid="status-filter"
          options={[
            { value: 0, label: t('monitor.allStatus') },
            ...COUNT_CODES.filter((c) => c !== 8).map((c) => ({
              value: c,
              label: (
                <span>
                  <span className="tw-dot" style={{ background: countCodeColor(c) }} /> {t(`home.count.${c}`)}
                </span>
              ),
            })),
          ]}
        />
      </div>
      <div className="tw-strip tw-tree-summary" data-testid="tree-summary">
        <span>{t('monitor.shown', { n: tree.carIds.length })}</span>
        <span>{t('monitor.checked', { n: checked.size })}</span>
        {tree.carIds.length > 0 && (
          <span className="tw-tree-bulk">
            <Button type="link" size="small" onClick={() => applyTreeChecks(tree.carIds, tree.carIds)} disabled={visibleChecked === tree.carIds.length}>
              {t('monitor.checkShown')}
            </Button>
            <Button type="link" size="small" onClick={() => applyTreeChecks(tree.carIds, [])} disabled={visibleChecked === 0}>
              {t('monitor.uncheckShown')}
            </Button>
          </span>
        )}
      </div>
      <div className="tw-tree-box" ref={boxRef}>
        {body}
      </div>
    </div>
  );
}
