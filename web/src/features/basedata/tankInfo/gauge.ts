/** Gauge connection checks, mirroring tankinfo.ValidHost and GroundInput.clean. */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIPv6(h: string): boolean {
  if (!h.includes(':') || !/^[0-9a-fA-F:.]+$/.test(h)) return false;
  const double = h.split('::').length - 1;
  if (double > 1) return false;
  const parts = h.split(':').filter((p, i, a) => !(p === '' && (i === 0 || i === a.length - 1 || double)));
  let groups = parts.length;
  const last = parts[parts.length - 1] ?? '';
  if (last.includes('.')) {
    if (!IPV4.test(last)) return false;
    groups += 1; // an embedded IPv4 address is two groups
    parts.pop();
  }
  if (!parts.every((p) => /^[0-9a-fA-F]{1,4}$/.test(p))) return false;
  return double ? groups < 8 : groups === 8;
}

/** An IPv4 or IPv6 address or an RFC 1123 host name. */
export function validHost(host: string): boolean {
  const h = host.trim();
  if (h === '' || h.length > 253) return false;
  if (IPV4.test(h) || isIPv6(h.replace(/^\[|\]$/g, ''))) return true;
  const labels = h.replace(/\.$/, '').split('.');
  if (labels.every((l) => /^\d+$/.test(l))) return false; // a mistyped address
  return labels.every((l) => l.length >= 1 && l.length <= 63 && /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/.test(l));
}

export type GaugeProblem = null | 'partial' | 'host' | 'port' | 'tank';

/** The gauge connection: all three empty (no gauge) or all three valid. */
export function gaugeProblem(host: string | undefined, port: number | null | undefined, tank: number | null | undefined): GaugeProblem {
  const h = (host ?? '').trim();
  const p = port ?? 0;
  const n = tank ?? 0;
  if (h === '' && !p && !n) return null;
  if (h === '' || !p || !n) return 'partial';
  if (!validHost(h)) return 'host';
  if (p < 1 || p > 65535 || !Number.isInteger(p)) return 'port';
  if (n < 1 || n > 99 || !Number.isInteger(n)) return 'tank';
  return null;
}
