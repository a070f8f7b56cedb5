import type { MappingAlgorithm } from 'antd';
import { create } from 'zustand';
import type { MenuNode, PlatformInfo, Session, UserPrefs } from '../api/types';
import { currentLang, type Lang } from '../i18n';
import { setUserZone } from '../lib/zone';

/** Browser storage keys (spec §3). Logout clears all of local storage. */
export const STORAGE = {
  token: 'token',
  userId: 'userid',
  nickName: 'nickName',
  status: 'status',
  currentUserInfo: 'currentUserInfo',
  authMenu: 'authMenu',
  setMenu: 'setMenu',
  access: 'access',
  lang: 'lang',
} as const;

export interface ErrorLogEntry {
  id: number;
  time: string;
  type: 'http' | 'script' | 'connection';
  code: number;
  message: string;
  url: string;
  token: string;
  userId: string;
  userName: string;
}

export interface Tab {
  /** Route path without query, the tab's key. */
  key: string;
  /** Full location (path + search) to return to. */
  to: string;
  /** Page name (menu.json name) — the title is t(`menu.${name}`). */
  name: string;
}

function readJSON<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function isLoggedIn(): boolean {
  return localStorage.getItem(STORAGE.status) === '1' && !!localStorage.getItem(STORAGE.token);
}

interface AppState {
  lang: Lang;
  platform: PlatformInfo | null;
  session: Session | null;
  loggedIn: boolean;
  authMenu: MenuNode[] | null;
  setMenu: string[];
  tabs: Tab[];
  activeModule: string | null;
  collapsed: boolean;
  errorLog: ErrorLogEntry[];
  pending: number;
  /** antd's dark algorithm once the signed-in console has loaded it (darkTheme.ts). */
  darkAlgorithm: MappingAlgorithm | null;

  setLang: (lang: Lang) => void;
  setPlatform: (p: PlatformInfo | null) => void;
  signIn: (session: Session, menu: MenuNode[]) => void;
  updateSession: (session: Session) => void;
  /** The user's settings as the server stored them (userSetting/edit): into the session, at once. */
  setSettings: (settings: { language: string; timezone: string; prefs: UserPrefs }) => void;
  signOutLocal: () => void;
  setSetMenu: (names: string[]) => void;
  openTab: (tab: Tab) => void;
  closeTabs: (keys: string[]) => void;
  setActiveModule: (name: string | null) => void;
  setCollapsed: (c: boolean) => void;
  addError: (e: Omit<ErrorLogEntry, 'id' | 'time' | 'token' | 'userId' | 'userName'>) => ErrorLogEntry;
  clearErrors: () => void;
  requestStarted: () => void;
  requestFinished: () => void;
}

let errorSeq = 0;

export const useAppStore = create<AppState>((set, get) => ({
  lang: currentLang(),
  platform: null,
  session: readJSON<Session>(STORAGE.currentUserInfo),
  loggedIn: isLoggedIn(),
  authMenu: readJSON<MenuNode[]>(STORAGE.authMenu),
  setMenu: readJSON<string[]>(STORAGE.setMenu) ?? [],
  tabs: [],
  activeModule: null,
  collapsed: false,
  errorLog: [],
  pending: 0,
  darkAlgorithm: null,

  setLang: (lang) => set({ lang }),
  setPlatform: (platform) => set({ platform }),
  signIn: (session, menu) => {
    const { access_token, ...rest } = session;
    localStorage.setItem(STORAGE.token, access_token ?? '');
    localStorage.setItem(STORAGE.userId, String(session.userId));
    localStorage.setItem(STORAGE.nickName, session.userNickName ?? '');
    localStorage.setItem(STORAGE.status, '1');
    localStorage.setItem(STORAGE.currentUserInfo, JSON.stringify(rest));
    // Spec §4/§6: after login the access role is always the single role super_admin.
    localStorage.setItem(STORAGE.access, JSON.stringify(['super_admin']));
    localStorage.setItem(STORAGE.authMenu, JSON.stringify(menu));
    localStorage.setItem(STORAGE.setMenu, '[]');
    set({ session: rest, loggedIn: true, authMenu: menu, setMenu: [], tabs: [], activeModule: null });
  },
  updateSession: (session) => {
    const { access_token: _t, ...rest } = session;
    localStorage.setItem(STORAGE.currentUserInfo, JSON.stringify(rest));
    set({ session: rest });
  },
  setSettings: ({ language, timezone, prefs }) => {
    const session = get().session;
    if (!session) return;
    const next = { ...session, language, timezone, prefs };
    localStorage.setItem(STORAGE.currentUserInfo, JSON.stringify(next));
    set({ session: next });
  },
  signOutLocal: () => {
    localStorage.clear();
    set({ session: null, loggedIn: false, authMenu: null, setMenu: [], tabs: [], activeModule: null });
  },
  setSetMenu: (names) => {
    localStorage.setItem(STORAGE.setMenu, JSON.stringify(names));
    set({ setMenu: names });
  },
  openTab: (tab) => {
    const tabs = get().tabs;
    const i = tabs.findIndex((x) => x.key === tab.key);
    if (i < 0) set({ tabs: [...tabs, tab] });
    else if (tabs[i].to !== tab.to) set({ tabs: tabs.map((x, j) => (j === i ? tab : x)) });
  },
  closeTabs: (keys) => set({ tabs: get().tabs.filter((t) => !keys.includes(t.key)) }),
  setActiveModule: (activeModule) => set({ activeModule }),
  setCollapsed: (collapsed) => set({ collapsed }),
  addError: (e) => {
    const session = get().session;
    const entry: ErrorLogEntry = {
      ...e,
      id: ++errorSeq,
      time: new Date().toISOString(),
      token: localStorage.getItem(STORAGE.token) ?? '',
      userId: localStorage.getItem(STORAGE.userId) ?? '',
      userName: session?.userName ?? '',
    };
    set({ errorLog: [entry, ...get().errorLog].slice(0, 200) });
    return entry;
  },
  clearErrors: () => set({ errorLog: [] }),
  requestStarted: () => set({ pending: get().pending + 1 }),
  requestFinished: () => set({ pending: Math.max(0, get().pending - 1) }),
}));

// the user's own zone (D90) follows the session: at load, sign-in, sign-out and a saved preference
setUserZone(useAppStore.getState().session?.timezone);
useAppStore.subscribe((s, prev) => {
  if (s.session?.timezone !== prev.session?.timezone) setUserZone(s.session?.timezone);
});
