import dayjs, { type Dayjs } from 'dayjs';

/**
 * The platform's wall clock. The server reads and writes times as Asia/Shanghai wall-clock text
 * (DESIGN §4); a browser elsewhere (or a CI machine on UTC) must still mean Shanghai's "today".
 * Times are kept as plain dayjs values whose fields are the zone's wall-clock fields, so presets,
 * pickers and formatting all work on wall time.
 */
export const PLATFORM_ZONE = 'Asia/Shanghai';

/** The zone the system settings chose (platformInfo `timeZone`); Shanghai until the server says. */
let platformZone = PLATFORM_ZONE;

/** Sets the platform's zone (from platformInfo, and after an administrator changes it). */
export function setPlatformZone(zone: string | undefined): void {
  platformZone = zone || PLATFORM_ZONE;
}

/** The platform's zone in force. */
export function platformZoneName(): string {
  return platformZone;
}

/** The signed-in user's own zone (userSetting/edit `timezone`, D90); null: the platform's. */
let userZone: string | null = null;

/** Sets the user's zone from the session (on sign-in, reload and a saved preference); ''/unknown: none. */
export function setUserZone(zone: string | null | undefined): void {
  userZone = zone && knownZone(zone) ? zone : null;
}

/** The zone the console shows times in: the user's when set, else the platform's. */
export function displayZoneName(): string {
  return userZone ?? platformZone;
}

function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock of `zone` (the display zone by default) at the instant `at` (Unix ms), as a dayjs with those fields. */
export function zoneTime(at: number, zone: string = displayZoneName()): Dayjs {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatter(zone).formatToParts(new Date(at));
  } catch {
    parts = formatter(PLATFORM_ZONE).formatToParts(new Date(at)); // an unknown zone name
  }
  const v = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return dayjs(`${v('year')}-${v('month')}-${v('day')}T${v('hour')}:${v('minute')}:${v('second')}`).millisecond(at % 1000);
}

/** Now on the display zone's wall clock (the user's zone, else the platform's). */
export function zoneNow(zone: string = displayZoneName()): Dayjs {
  return zoneTime(Date.now(), zone);
}

/** The IANA zones the browser knows, Asia first (the platform's users are there). */
export function zoneOptions(): string[] {
  const all = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['Asia/Shanghai', 'Asia/Hong_Kong', 'Asia/Taipei', 'Asia/Tokyo', 'UTC'];
  return [...all.filter((z) => z.startsWith('Asia/')), ...all.filter((z) => !z.startsWith('Asia/'))];
}

const WALL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** The instant (Unix ms) of wall-clock text `YYYY-MM-DD HH:mm:ss` in `zone`; null for other text. */
export function wallToMs(text: string, zone: string): number | null {
  const m = WALL.exec(text);
  if (!m) return null;
  const asUTC = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  let at = asUTC;
  // twice: the second pass settles a wall time next to an offset change
  for (let i = 0; i < 2; i++) {
    const w = zoneTime(at, zone);
    at += asUTC - Date.UTC(w.year(), w.month(), w.date(), w.hour(), w.minute(), w.second());
  }
  return at;
}

/** Wall-clock text of `from` as the same instant's text in `to`; other text unchanged. */
export function shiftWall(text: string, from: string, to: string): string {
  if (from === to) return text;
  const at = wallToMs(text, from);
  return at === null ? text : zoneTime(at, to).format('YYYY-MM-DD HH:mm:ss');
}

/**
 * Every wall-clock string (`YYYY-MM-DD HH:mm:ss`, the server's time format) in a JSON value moved from
 * zone `from` to zone `to` (a copy; the value itself when the zones are the same). Dates without a time
 * are days, not instants, and stay.
 */
export function shiftWalls<T>(value: T, from: string, to: string): T {
  if (from === to) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return shiftWall(v, from, to);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
