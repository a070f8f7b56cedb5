/** Types of the server contract (docs/API.md). */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  success: number;
  data: T;
}

export interface PageQuery {
  pageNum: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: 'ascend' | 'descend';
}

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export type ThemeName = 'tankcar' | 'groundtank' | 'escort' | 'telecom';

export interface PlatformInfo {
  theme: ThemeName;
  indexTitle: string;
  indexLogo: string;
  loginTitle: string;
  supplyChainUrl: string;
  /** Map tiles: 'gaode' | 'osm' | 'none' (missing on older servers = none). */
  mapTiles?: string;
  /** The platform's display zone (system settings). */
  timeZone?: string;
}

export interface CurrentUserInfo {
  userId: number;
  userName: string;
  userNickName: string;
  groupId: number;
  groupCode: string;
  groupName: string;
  topGroupId: number;
  roleIds: number[];
  theme: ThemeName;
}

/** A user's console preferences (server internal/org/prefs.go); '' / 0 = the console's default. */
export interface UserPrefs {
  theme: '' | 'light' | 'dark';
  mapLayer: '' | 'normal' | 'satellite';
  pageSize: 0 | 10 | 20 | 50 | 100;
}

export interface Session {
  userName: string;
  userId: number;
  groupId: number;
  groupCode: string;
  groupName: string;
  topGroupId: number;
  userNickName: string;
  userEmail: string;
  userPhone: string;
  userStatus: number;
  indexTitle: string;
  indexLogo: string;
  theme: ThemeName;
  platform: boolean;
  /** The user's own settings (userSetting/edit): '' = unset (the browser's language, the platform's zone). */
  language?: string;
  timezone?: string;
  /** The user's console preferences (missing on older servers = the defaults). */
  prefs?: UserPrefs;
  access_token?: string;
  currentUserInfo: CurrentUserInfo;
  exceedCars?: unknown[];
  expiringCars?: unknown[];
  expiredCars?: unknown[];
}

export interface MenuNode {
  name: string;
  title: string;
  code: string;
  path?: string;
  icon?: string;
  allScreen?: boolean;
  href?: string;
  redirect?: string;
  checked?: boolean;
  children?: MenuNode[] | null;
}

export interface User {
  id: number;
  name: string;
  nickName: string;
  phone: string;
  email: string;
  platform: boolean;
  groupId: number;
  groupName: string;
  roleIds: number[];
  roleNames: string[];
  status: number;
  expireAt: string | null;
  lastLoginAt: string | null;
  createdAt: string;
  /** sign-in locked for some address after repeated wrong passwords */
  locked?: boolean;
}

export interface Role {
  id: number;
  name: string;
  remark: string;
  groupId: number;
  groupName: string;
  resourceCodes?: string[];
  userCount: number;
  createdAt: string;
}

export interface Group {
  id: number;
  parentId: number | null;
  name: string;
  code: string;
  contact: string;
  phone: string;
  address: string;
  remark: string;
  title: string;
  logo: string;
  theme: ThemeName | '';
  /** A sales company (groupInfo/addSalesCompany, issue 15). */
  sales?: boolean;
  children?: Group[];
}

export interface OperationLogEntry {
  id: number;
  userId: number;
  userName: string;
  groupId: number;
  module: string;
  action: string;
  target: string;
  targetId: number | null;
  detail: string;
  ip: string;
  createdAt: string;
  /** Module, action, target and detail in the caller's language, rendered by the server (internal/audit Render). */
  moduleName?: string;
  actionName?: string;
  targetText?: string;
  detailText?: string;
}
