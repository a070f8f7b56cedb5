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

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock of `zone` at the instant `at` (Unix ms), as a dayjs with those fields. */
export function zoneTime(at: number, zone: string = platformZone): Dayjs {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatter(zone).formatToParts(new Date(at));
  } catch {
    parts = formatter(PLATFORM_ZONE).formatToParts(new Date(at)); // an unknown zone name
  }
  const v = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return dayjs(`${v('year')}-${v('month')}-${v('day')}T${v('hour')}:${v('minute')}:${v('second')}`).millisecond(at % 1000);
}

/** Now on the platform's wall clock. */
export function zoneNow(zone: string = platformZone): Dayjs {
  return zoneTime(Date.now(), zone);
}

/** The IANA zones the browser knows, Asia first (the platform's users are there). */
export function zoneOptions(): string[] {
  const all = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['Asia/Shanghai', 'Asia/Hong_Kong', 'Asia/Taipei', 'Asia/Tokyo', 'UTC'];
  return [...all.filter((z) => z.startsWith('Asia/')), ...all.filter((z) => !z.startsWith('Asia/'))];
}
