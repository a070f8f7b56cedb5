import type { ComponentType } from 'react';

/**
 * The console's page table: one entry per page of internal/org/menu.json, under its module's path.
 * A test (pages.test.ts) checks every menu.json node has an entry here (or is the external link) and
 * a `menu.<name>` i18n key. To build a page: create src/features/<module>/<page>/index.tsx with a
 * default-exported component and point `load` at it.
 */
export type PageModule = { default: ComponentType };
export type Loader = () => Promise<PageModule>;

export interface PageDef {
  /** menu.json name; title is t(`menu.${name}`); button codes are `${name}-<suffix>`. */
  name: string;
  path: string;
  load: Loader;
  /** Render without the shell (menu.json allScreen). */
  allScreen?: boolean;
  /** Closing the tab asks '确定要关闭这一页吗' first. */
  beforeCloseConfirm?: boolean;
}

export interface ModuleDef {
  name: string;
  /** Module path; for a single-page module (home, faultRecord) the page itself. */
  path: string;
  icon: string;
  children: PageDef[];
  /** External link opened in a new window (supplyChain). */
  href?: boolean;
  /** Single-page module: the module is itself a page. */
  page?: PageDef;
}

const notReady: Loader = () => import('../features/common/NotReadyPage');
/** monitoring, monitoring2 (?code&title) and monitoring-all are one page that reads its route. */
const monitoring: Loader = () => import('../features/manager/monitoring');

const FULL = new Set(['monitoring', 'monitoring2', 'monitoring-all', 'cockpit', 'videoLive', 'monitoring_waybill', 'videoMonitor', 'trackReplaying', 'videoReplaying', 'videoReplaying2']);

function pages(module: string, names: string[], overrides: Record<string, Partial<PageDef>> = {}): PageDef[] {
  return names.map((name) => ({
    name,
    path: `/${module}/${name}`,
    load: notReady,
    ...(FULL.has(name) ? { allScreen: true } : {}),
    ...overrides[name],
  }));
}

export const MODULES: ModuleDef[] = [
  { name: 'home', path: '/home', icon: 'home', children: [], page: { name: 'home', path: '/home', load: () => import('../features/home/HomePage') } },
  {
    name: 'manager', path: '/manager', icon: 'monitor',
    children: pages('manager', [
      'monitoring', 'monitoring2', 'monitoring-all', 'cockpit', 'sensorRecord', 'historyRecordVXE', 'StateChangeListVXE', 'parameter',
      'carRecord', 'bizDiffRecordVXE', 'transportRecord', 'offlineRecord', 'tankEventRecord', 'carEventRecord', 'oilTransportProcess',
      'tankMonitor', 'tankMonitor2VXE', 'hydtrend', 'hydtrend2', 'report', 'statistic', 'blueLockRecord', 'leadSealRecord', 'transportPlan',
      'loadRecord', 'transportProcess2', 'transportPlanCarItem', 'carStat', 'compStat', 'transportProductStat', 'carStat2', 'compStat2',
      'transportProductStat2', 'blueLockStat2', 'blueLockStat', 'blueLockWeekStat', 'blueLockMonthStat', 'sealRecordStat',
      'sealRecordWeekStat', 'sealRecordMonthStat', 'videoLive', 'monitoring_waybill', 'historyWaybill', 'videoMonitor', 'trackReplaying',
      'videoReplaying', 'videoReplaying2', 'parking', 'queryTable',
    ], {
      monitoring: { load: monitoring },
      monitoring2: { load: monitoring },
      'monitoring-all': { load: monitoring },
      cockpit: { load: () => import('../features/manager/cockpit') },
      trackReplaying: { load: () => import('../features/manager/trackReplaying') },
      monitoring_waybill: { load: () => import('../features/manager/monitoring_waybill') },
      historyWaybill: { load: () => import('../features/manager/historyWaybill') },
      historyRecordVXE: { load: () => import('../features/manager/historyRecordVXE') },
      queryTable: { load: () => import('../features/manager/queryTable') },
      sensorRecord: { load: () => import('../features/manager/sensorRecord') },
      StateChangeListVXE: { load: () => import('../features/manager/StateChangeListVXE') },
      carRecord: { load: () => import('../features/manager/carRecord') },
      offlineRecord: { load: () => import('../features/manager/offlineRecord') },
      carEventRecord: { load: () => import('../features/manager/carEventRecord') },
      bizDiffRecordVXE: { load: () => import('../features/manager/bizDiffRecordVXE') },
      tankEventRecord: { load: () => import('../features/manager/tankEventRecord') },
      parameter: { load: () => import('../features/manager/parameter') },
      parking: { load: () => import('../features/manager/parking') },
      tankMonitor: { load: () => import('../features/manager/tankMonitor') },
      tankMonitor2VXE: { load: () => import('../features/manager/tankMonitor2VXE') },
      hydtrend: { load: () => import('../features/manager/hydtrend') },
      hydtrend2: { load: () => import('../features/manager/hydtrend2') },
      oilTransportProcess: { load: () => import('../features/manager/oilTransportProcess') },
      transportProcess2: { load: () => import('../features/manager/transportProcess2') },
      transportRecord: { load: () => import('../features/manager/transportRecord') },
      transportPlan: { load: () => import('../features/manager/transportPlan') },
      transportPlanCarItem: { load: () => import('../features/manager/transportPlanCarItem') },
      loadRecord: { load: () => import('../features/manager/loadRecord') },
      report: { load: () => import('../features/manager/report') },
      statistic: { load: () => import('../features/manager/statistic') },
      blueLockRecord: { load: () => import('../features/manager/blueLockRecord') },
      leadSealRecord: { load: () => import('../features/manager/leadSealRecord') },
      carStat: { load: () => import('../features/manager/carStat') },
      compStat: { load: () => import('../features/manager/compStat') },
      transportProductStat: { load: () => import('../features/manager/transportProductStat') },
      carStat2: { load: () => import('../features/manager/carStat2') },
      compStat2: { load: () => import('../features/manager/compStat2') },
      transportProductStat2: { load: () => import('../features/manager/transportProductStat2') },
      blueLockStat2: { load: () => import('../features/manager/blueLockStat2') },
      blueLockStat: { load: () => import('../features/manager/blueLockStat') },
      blueLockWeekStat: { load: () => import('../features/manager/blueLockWeekStat') },
      blueLockMonthStat: { load: () => import('../features/manager/blueLockMonthStat') },
      sealRecordStat: { load: () => import('../features/manager/sealRecordStat') },
      sealRecordWeekStat: { load: () => import('../features/manager/sealRecordWeekStat') },
      sealRecordMonthStat: { load: () => import('../features/manager/sealRecordMonthStat') },
      videoLive: { load: () => import('../features/manager/videoLive') },
      videoMonitor: { load: () => import('../features/manager/videoMonitor') },
      videoReplaying: { load: () => import('../features/manager/videoReplaying') },
      videoReplaying2: { load: () => import('../features/manager/videoReplaying2') },
    }),
  },
  {
    name: 'police', path: '/police', icon: 'alert',
    children: pages('police', ['controlMode', 'policeType', 'blueLockLocalRecord', 'passwordViewingRecord', 'helpRequestRecord', 'policeMsg', 'passwordRecord', 'abnormal'], {
      helpRequestRecord: { load: () => import('../features/police/helpRequestRecord') },
      policeMsg: { load: () => import('../features/police/policeMsg') },
      policeType: { load: () => import('../features/police/policeType') },
      controlMode: { load: () => import('../features/police/controlMode') },
      abnormal: { load: () => import('../features/police/abnormal') },
      passwordRecord: { load: () => import('../features/police/passwordRecord') },
      blueLockLocalRecord: { load: () => import('../features/police/blueLockLocalRecord') },
      passwordViewingRecord: { load: () => import('../features/police/passwordViewingRecord') },
    }),
  },
  {
    name: 'basedata', path: '/basedata', icon: 'database',
    children: pages('basedata', [
      'simInfoVXE', 'terminalVXE', 'groupCar', 'carPassword', 'blueLock', 'blueLockBindRecord', 'carBlacklistRecord', 'employees', 'sensor',
      'station', 'suspectedStation', 'tankInfo', 'waybill', 'waybill2', 'waybill3', 'transProduct', 'equipment', 'leaveRecord', 'jobDuty', 'operateFlow',
    ], {
      groupCar: { load: () => import('../features/basedata/groupCar') },
      carPassword: { load: () => import('../features/basedata/carPassword') },
      terminalVXE: { load: () => import('../features/basedata/terminalVXE') },
      simInfoVXE: { load: () => import('../features/basedata/simInfoVXE') },
      sensor: { load: () => import('../features/basedata/sensor') },
      station: { load: () => import('../features/basedata/station') },
      tankInfo: { load: () => import('../features/basedata/tankInfo') },
      transProduct: { load: () => import('../features/basedata/transProduct') },
      suspectedStation: { load: () => import('../features/basedata/suspectedStation') },
      waybill: { load: () => import('../features/basedata/waybill') },
      waybill2: { load: () => import('../features/basedata/waybill2') },
      waybill3: { load: () => import('../features/basedata/waybill3') },
      blueLock: { load: () => import('../features/basedata/blueLock') },
      blueLockBindRecord: { load: () => import('../features/basedata/blueLockBindRecord') },
      carBlacklistRecord: { load: () => import('../features/basedata/carBlacklistRecord') },
      employees: { load: () => import('../features/basedata/employees') },
      equipment: { load: () => import('../features/basedata/equipment') },
      leaveRecord: { load: () => import('../features/basedata/leaveRecord') },
      jobDuty: { load: () => import('../features/basedata/jobDuty') },
      operateFlow: { load: () => import('../features/basedata/operateFlow') },
    }),
  },
  {
    name: 'dataAnalysis', path: '/dataAnalysis', icon: 'chart',
    children: pages('dataAnalysis', ['transportation', 'trend'], {
      transportation: { load: () => import('../features/dataAnalysis/transportation') },
      trend: { load: () => import('../features/dataAnalysis/trend') },
    }),
  },
  {
    name: 'access', path: '/access', icon: 'setting',
    children: pages(
      'access',
      ['message', 'baseType', 'operationLog', 'groupInfo', 'customer', 'customerCar', 'roleInfo', 'userInfo', 'equipmentFun', 'upgradePack', 'system', 'editTemp', 'updateLogo'],
      {
        operationLog: { load: () => import('../features/access/operationLog') },
        message: { load: () => import('../features/access/message') },
        groupInfo: { load: () => import('../features/access/groupInfo') },
        customer: { load: () => import('../features/access/customer') },
        customerCar: { load: () => import('../features/access/customerCar') },
        roleInfo: { load: () => import('../features/access/roleInfo') },
        userInfo: { load: () => import('../features/access/userInfo') },
        updateLogo: { load: () => import('../features/access/updateLogo') },
        baseType: { load: () => import('../features/access/baseType') },
        equipmentFun: { load: () => import('../features/access/equipmentFun') },
        upgradePack: { load: () => import('../features/access/upgradePack') },
        system: { load: () => import('../features/access/system') },
        editTemp: { load: () => import('../features/access/editTemp') },
      },
    ),
  },
  { name: 'faultRecord', path: '/faultRecord', icon: 'tool', children: [], page: { name: 'faultRecord', path: '/faultRecord', load: () => import('../features/faultRecord') } },
  { name: 'supplyChain', path: '', icon: 'link', children: [], href: true },
];

/** Pages not in the menu, opened from the header. */
export const EXTRA_PAGES: PageDef[] = [
  { name: 'rePassword', path: '/rePassword', load: () => import('../features/rePassword/RePasswordPage'), beforeCloseConfirm: true },
  { name: 'errorLog', path: '/errorLog', load: () => import('../features/errorLog/ErrorLogPage') },
];

export function allPages(): PageDef[] {
  const out: PageDef[] = [];
  for (const m of MODULES) {
    if (m.page) out.push(m.page);
    out.push(...m.children);
  }
  return [...out, ...EXTRA_PAGES];
}

const byPath = new Map(allPages().map((p) => [p.path, p]));
export function pageByPath(path: string): PageDef | undefined {
  return byPath.get(path);
}

/** The module a page path belongs to. */
export function moduleOfPath(path: string): ModuleDef | undefined {
  return MODULES.find((m) => m.path && (path === m.path || path.startsWith(`${m.path}/`)));
}

/**
 * Whether the signed-in user may open a page, given their permitted modules (filterMenu's result): a page
 * opened by URL outside the user's role gets the no-permission page instead of mounting and firing
 * requests the server refuses one by one. The header's own pages (rePassword, errorLog) are everyone's.
 */
export function isPagePermitted(page: Pick<PageDef, 'name' | 'path'>, permitted: readonly ModuleDef[]): boolean {
  if (EXTRA_PAGES.some((p) => p.path === page.path)) return true;
  const m = moduleOfPath(page.path);
  if (!m) return false;
  const mine = permitted.find((x) => x.name === m.name);
  if (!mine) return false;
  if (m.page) return true;
  return mine.children.some((c) => c.name === page.name);
}
