/**
 * Percentages that add up to 100 (largest remainder method) and never show a non-zero count as 0.
 *
 * Each value's exact share is cut to whole display units (1 % at `decimals` 0, 0.1 % at 1); the units
 * left over go to the largest remainders (ties: the larger value, then the earlier one). Then every
 * non-zero value gets at least one unit, taken from the largest share, so "异常 1 of 200" reads 1 %,
 * not 0 %, and the whole still adds up to 100. (When there are more non-zero values than units, the
 * last ones stay at 0: there is nothing left to take.) Zero and negative values read 0; an all-zero
 * input reads all 0.
 */
export function percentages(values: readonly number[], decimals = 0): number[] {
  const scale = 10 ** decimals;
  const units = 100 * scale;
  const counts = values.map((v) => (Number.isFinite(v) && v > 0 ? v : 0));
  const total = counts.reduce((a, b) => a + b, 0);
  if (total <= 0) return counts.map(() => 0);
  const exact = counts.map((v) => (v * units) / total);
  const out = exact.map(Math.floor);
  let left = units - out.reduce((a, b) => a + b, 0);
  const order = counts.map((_, i) => i).sort((a, b) => exact[b] - out[b] - (exact[a] - out[a]) || counts[b] - counts[a] || a - b);
  for (const i of order) {
    if (left <= 0) break;
    out[i]++;
    left--;
  }
  for (let i = 0; i < out.length; i++) {
    if (counts[i] === 0 || out[i] > 0) continue;
    let from = -1;
    for (let j = 0; j < out.length; j++) if (out[j] > 1 && (from < 0 || out[j] > out[from])) from = j;
    if (from < 0) break;
    out[from]--;
    out[i] = 1;
  }
  return out.map((u) => u / scale);
}

/** Share of `part` in `total` by the same rule: a part that is neither none nor all reads between one unit and 100 less one unit. */
export function shareOf(part: number, total: number, decimals = 0): number {
  if (!(total > 0) || !(part > 0)) return 0;
  return percentages([Math.min(part, total), Math.max(total - part, 0)], decimals)[0];
}
