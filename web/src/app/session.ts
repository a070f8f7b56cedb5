import { currentSession, findTreesForLogin, logIn, logOut } from '../api/auth';
import type { MenuNode, Session } from '../api/types';
import i18n, { applyLang, currentLang } from '../i18n';
import { NO_PERMISSION } from '../lib/menuFilter';
import { liveConnection } from './live';
import { sessionLang } from './prefs';
import { STORAGE, useAppStore } from './store';

export type SignInResult = { ok: true } | { ok: false; message: string };

/**
 * Spec §4/§5/§7: POST logIn {account (trimmed), password, type 0}; code 0 → the server's message;
 * success → token etc. in localStorage, role super_admin, menu fetched (null → '当前用户未设置权限').
 * A failure's message is for the login page's error line (it shows no antd toast: D83).
 */
export async function signIn(account: string, password: string): Promise<SignInResult> {
  const body = await logIn({ account: account.trim(), password, type: 0 });
  if (body.code !== 1 || !body.data) {
    return { ok: false, message: body.message || i18n.t('auth.loginFailed') };
  }
  const session: Session = body.data;
  localStorage.setItem(STORAGE.token, session.access_token ?? '');
  let menu: MenuNode[] | null;
  try {
    menu = await findTreesForLogin(session.userId);
  } catch {
    localStorage.removeItem(STORAGE.token);
    return { ok: false, message: i18n.t('auth.loginFailed') };
  }
  if (menu == null || menu.length === 0) {
    localStorage.removeItem(STORAGE.token);
    return { ok: false, message: i18n.language.startsWith('zh-CN') ? NO_PERMISSION : i18n.t('auth.noPermission') };
  }
  useAppStore.getState().signIn(session, menu);
  // the user's saved language (personal settings) is applied at sign-in and kept for reloads
  const lang = sessionLang(session);
  if (lang && lang !== currentLang()) {
    try {
      await applyLang(lang);
      useAppStore.getState().setLang(lang);
    } catch {
      // its texts could not be loaded: stay in the current language
    }
  }
  liveConnection.online(session.userId);
  return { ok: true };
}

/**
 * Spec §4 logout: GET logOut, live connection offline, clear all local storage, back to /login
 * (keeping `ref` if present), reload after 1000 ms.
 */
export async function signOut(): Promise<void> {
  try {
    await logOut();
  } catch {
    // the token may already be invalid; logging out locally is what matters
  }
  liveConnection.offline();
  const query = window.location.hash.split('?')[1] ?? '';
  const ref = new URLSearchParams(query).get('ref');
  useAppStore.getState().signOutLocal();
  localStorage.clear();
  window.location.hash = ref ? `#/login?ref=${encodeURIComponent(ref)}` : '#/login';
  window.setTimeout(() => window.location.reload(), 1000);
}

/**
 * Re-reads the session (GET /authority-app/userInfo/current) and stores it, so the header picks up a
 * changed title, logo or theme. Returns the fresh session, or null if it could not be read.
 */
export async function refreshSession(): Promise<Session | null> {
  try {
    const fresh = await currentSession();
    if (!fresh) return null;
    useAppStore.getState().updateSession(fresh);
    return fresh;
  } catch {
    return null;
  }
}
