import type { Session, UserPrefs } from '../api/types';
import { LANGS, type Lang } from '../i18n';
import { useAppStore } from './store';

/**
 * A user's console preferences (issue 18): kept on the server (userSetting/edit), carried by the
 * session, applied at sign-in, on reload and at once when saved. Pure helpers here; the dialog is
 * shell/PrefsDialog.tsx. Light on purpose: the store and the providers (login route) import it.
 */

/** The page sizes a list offers (the server accepts these, or 0 for the default). */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
/** The lists' page size when the user chose none. */
export const DEFAULT_PAGE_SIZE = 10;

export const NO_PREFS: UserPrefs = { theme: '', mapLayer: '', pageSize: 0 };

/** The preferences of a session, each unknown value read as the default (an older server, a bad value). */
export function prefsOf(session: Pick<Session, 'prefs'> | null | undefined): UserPrefs {
  const p = session?.prefs;
  if (!p) return NO_PREFS;
  return {
    theme: p.theme === 'light' || p.theme === 'dark' ? p.theme : '',
    mapLayer: p.mapLayer === 'normal' || p.mapLayer === 'satellite' ? p.mapLayer : '',
    pageSize: (PAGE_SIZES as readonly number[]).includes(p.pageSize) ? p.pageSize : 0,
  };
}

/** The lists' default page size. */
export function pageSizeOf(p: UserPrefs): number {
  return p.pageSize || DEFAULT_PAGE_SIZE;
}

/** Whether the console is dark. */
export function isDark(p: UserPrefs): boolean {
  return p.theme === 'dark';
}

/** The first layer of a map that offers normal and satellite. */
export function mapLayerOf(p: UserPrefs): 'normal' | 'satellite' {
  return p.mapLayer === 'satellite' ? 'satellite' : 'normal';
}

/** The session's language if it is one the console has ('' or unknown: none, keep the current). */
export function sessionLang(session: Pick<Session, 'language'> | null | undefined): Lang | null {
  const l = session?.language;
  return l && (LANGS as readonly string[]).includes(l) ? (l as Lang) : null;
}

/** The signed-in user's preferences (defaults when signed out). */
export function usePrefs(): UserPrefs {
  // prefsOf returns NO_PREFS or a new object: select the stored one and normalise outside the selector
  const raw = useAppStore((s) => s.session?.prefs);
  return prefsOf(raw ? { prefs: raw } : null);
}

/** The ECharts theme of the preferences (D77): ECharts' built-in 'dark' while the console is dark. */
export function useChartTheme(): 'dark' | undefined {
  return useAppStore((s) => (isDark(prefsOf(s.session)) ? 'dark' : undefined));
}

/**
 * A chart's option for theme: dark charts keep the card's background instead of the theme's own (so
 * a chart sits in its card like the light one does).
 */
export function themedOption<T extends object>(option: T, theme: 'dark' | undefined): T {
  return theme === 'dark' ? { backgroundColor: 'transparent', ...option } : option;
}

/** The lists' default page size from the preferences. */
export function useDefaultPageSize(): number {
  return useAppStore((s) => pageSizeOf(prefsOf(s.session)));
}
