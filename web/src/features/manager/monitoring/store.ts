import { create } from 'zustand';
import type { LiveState } from '../../../api/liveStream';
import type { CarCounts, MapCar } from '../../../api/monitor';
import type { CountCode } from '../../../lib/vehicleColors';

/** A checked video channel of a car ("car and channel id pairs", spec §3). */
export interface CarChannel {
  carId: number;
  channelNo: number;
}

/** Key of a channel in the channel tree and the channel check list. */
export const channelKey = (carId: number, channelNo: number) => `${carId}-${channelNo}`;

export function parseChannelKey(key: string): CarChannel | null {
  const m = /^(\d+)-(\d+)$/.exec(key);
  return m ? { carId: Number(m[1]), channelNo: Number(m[2]) } : null;
}

/**
 * Map/monitoring state (spec §3): the live cars of the user's scope, counts, the checked cars of the
 * vehicle tree, the checked channels of the video tree, the header selection (a count code) and the
 * detail car.
 */
export interface MonitorState {
  /** Newest known state of every car in scope, by car id (snapshot replaces, delta merges). */
  cars: ReadonlyMap<number, MapCar>;
  counts: CarCounts;
  /** Time of the newest snapshot/delta (server time). */
  liveTime: string | null;
  liveState: LiveState;
  /** Whether a snapshot (or the first HTTP load) has arrived. */
  loaded: boolean;

  /** Selected tree node id (a tree key). */
  treeNodeId: string | null;
  /** Checked car ids of the vehicle tree: what the map shows. */
  checkedCarIds: ReadonlySet<number>;
  /** Checked channel keys of the video tree (`carId-channelNo`). */
  channelCheckList: readonly string[];
  /** The same as car and channel pairs. */
  carChannelPairs: readonly CarChannel[];
  /** Header selection: the count code the tree is filtered by (null = all). */
  headerCode: CountCode | null;
  /** The cars a plate search in the tree leaves (null = no search): the map shows only those of the checked. */
  searchedCarIds: ReadonlySet<number> | null;
  /** Car whose details are shown (the selected car). */
  detailCarId: number | null;
  /** Keep the map centred on the detail car as it moves. */
  follow: boolean;

  applySnapshot: (cars: readonly MapCar[], counts?: CarCounts, time?: string) => void;
  applyDelta: (cars: readonly MapCar[], counts?: CarCounts, time?: string) => void;
  setLiveState: (s: LiveState) => void;
  /** Spec §4: checking a car adds its id; unchecking removes it. */
  checkCar: (id: number, checked: boolean) => void;
  checkCars: (ids: Iterable<number>, checked: boolean) => void;
  setCheckedCars: (ids: Iterable<number>) => void;
  /**
   * A check in a (possibly filtered) tree: `visibleIds` are the cars the tree shows, `checkedVisible`
   * those now checked among them; checks of cars the tree does not show are kept.
   */
  applyTreeChecks: (visibleIds: Iterable<number>, checkedVisible: Iterable<number>) => void;
  setChannelChecks: (keys: readonly string[]) => void;
  setTreeNodeId: (id: string | null) => void;
  setHeaderCode: (code: CountCode | null) => void;
  setSearchedCars: (ids: Iterable<number> | null) => void;
  selectCar: (id: number | null) => void;
  setFollow: (follow: boolean) => void;
  /** Clears what the user chose (checks, filter, selection) and keeps the live data. */
  resetView: () => void;
  /** Clears everything (leaving the page). */
  reset: () => void;
}

const initial = {
  cars: new Map<number, MapCar>() as ReadonlyMap<number, MapCar>,
  counts: {} as CarCounts,
  liveTime: null as string | null,
  liveState: 'idle' as LiveState,
  loaded: false,
  treeNodeId: null as string | null,
  checkedCarIds: new Set<number>() as ReadonlySet<number>,
  channelCheckList: [] as readonly string[],
  carChannelPairs: [] as readonly CarChannel[],
  headerCode: null as CountCode | null,
  searchedCarIds: null as ReadonlySet<number> | null,
  detailCarId: null as number | null,
  follow: false,
};

/** Pure merge of a delta into the car map: changed cars replace (or add) theirs; null when nothing changed. */
export function mergeCars(current: ReadonlyMap<number, MapCar>, changed: readonly MapCar[]): Map<number, MapCar> | null {
  if (changed.length === 0) return null;
  const next = new Map(current);
  for (const c of changed) {
    if (typeof c?.carId !== 'number') continue;
    const old = next.get(c.carId);
    next.set(c.carId, old ? { ...old, ...c } : c);
  }
  return next;
}

/** Pure tree-check merge (see applyTreeChecks). */
export function mergeTreeChecks(current: ReadonlySet<number>, visibleIds: Iterable<number>, checkedVisible: Iterable<number>): Set<number> {
  const next = new Set(current);
  for (const id of visibleIds) next.delete(id);
  for (const id of checkedVisible) next.add(id);
  return next;
}

function sameSet(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

export const useMonitorStore = create<MonitorState>((set, get) => ({
  ...initial,

  applySnapshot: (cars, counts, time) => {
    const map = new Map<number, MapCar>();
    for (const c of cars) if (typeof c?.carId === 'number') map.set(c.carId, c);
    set({ cars: map, loaded: true, ...(counts ? { counts } : {}), ...(time !== undefined ? { liveTime: time } : {}) });
  },
  applyDelta: (cars, counts, time) => {
    const merged = mergeCars(get().cars, cars);
    set({ ...(merged ? { cars: merged } : {}), ...(counts ? { counts: { ...get().counts, ...counts } } : {}), ...(time !== undefined ? { liveTime: time } : {}) });
  },
  setLiveState: (liveState) => set({ liveState }),
  checkCar: (id, checked) => get().checkCars([id], checked),
  checkCars: (ids, checked) => {
    const next = new Set(get().checkedCarIds);
    for (const id of ids) {
      if (checked) next.add(id);
      else next.delete(id);
    }
    if (!sameSet(next, get().checkedCarIds)) set({ checkedCarIds: next });
  },
  setCheckedCars: (ids) => set({ checkedCarIds: new Set(ids) }),
  applyTreeChecks: (visibleIds, checkedVisible) => {
    const next = mergeTreeChecks(get().checkedCarIds, visibleIds, checkedVisible);
    if (!sameSet(next, get().checkedCarIds)) set({ checkedCarIds: next });
  },
  setChannelChecks: (keys) => {
    const list = keys.filter((k) => parseChannelKey(k));
    set({ channelCheckList: list, carChannelPairs: list.map((k) => parseChannelKey(k)!) });
  },
  setTreeNodeId: (treeNodeId) => set({ treeNodeId }),
  setHeaderCode: (headerCode) => set({ headerCode }),
  setSearchedCars: (ids) => {
    const next = ids == null ? null : new Set(ids);
    const cur = get().searchedCarIds;
    if (next === cur || (next && cur && sameSet(next, cur))) return;
    set({ searchedCarIds: next });
  },
  selectCar: (detailCarId) => set({ detailCarId, treeNodeId: detailCarId == null ? get().treeNodeId : `c-${detailCarId}` }),
  setFollow: (follow) => set({ follow }),
  resetView: () =>
    set({
      treeNodeId: null,
      checkedCarIds: new Set(),
      channelCheckList: [],
      carChannelPairs: [],
      headerCode: null,
      searchedCarIds: null,
      detailCarId: null,
      follow: false,
    }),
  reset: () => set({ ...initial, cars: new Map(), checkedCarIds: new Set() }),
}));

/** What the map shows: the checked cars, narrowed to a plate search of the tree when there is one. */
export function shownCarIds(checked: ReadonlySet<number>, searched: ReadonlySet<number> | null): number[] {
  const out: number[] = [];
  for (const id of checked) if (!searched || searched.has(id)) out.push(id);
  return out;
}
