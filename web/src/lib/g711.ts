/**
 * G.711 A-law and μ-law to 16-bit PCM (ITU-T G.711), by 256-entry tables: the devices' talk-back audio
 * arrives as G.711 on its own WebSocket and is played through Web Audio, because Chromium's MSE cannot
 * play G.711 inside FLV (jt1078-facts.md). WebCodecs decodes it too where present; the tables work
 * everywhere and cost 1 KB.
 */
function alaw(a: number): number {
  const v = a ^ 0x55;
  const exp = (v >> 4) & 7;
  const mant = v & 0x0f;
  const mag = exp === 0 ? (mant << 4) + 8 : ((mant << 4) + 0x108) << (exp - 1);
  return v & 0x80 ? mag : -mag;
}

function ulaw(u: number): number {
  const v = ~u & 0xff;
  const exp = (v >> 4) & 7;
  const mant = v & 0x0f;
  const mag = (((mant << 3) + 0x84) << exp) - 0x84;
  return v & 0x80 ? -mag : mag;
}

const ALAW = Int16Array.from({ length: 256 }, (_, i) => alaw(i));
const ULAW = Int16Array.from({ length: 256 }, (_, i) => ulaw(i));

export type G711Law = 'alaw' | 'ulaw';

/** Decodes G.711 bytes to PCM samples scaled to [-1, 1) for an AudioBuffer. */
export function decodeG711(bytes: Uint8Array, law: G711Law): Float32Array {
  const table = law === 'alaw' ? ALAW : ULAW;
  const out = new Float32Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = table[bytes[i]] / 32768;
  return out;
}

/** The 16-bit sample of one G.711 byte (tests, meters). */
export function g711Sample(byte: number, law: G711Law): number {
  return (law === 'alaw' ? ALAW : ULAW)[byte & 0xff];
}
