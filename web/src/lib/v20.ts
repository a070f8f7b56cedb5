/**
 * V20 in the console: the same method as the server's tank.VCF20 (DOMAIN.md §2, GB/T 1885 with base
 * 20 °C), so that a load record's form shows V20 and mass while the figures are typed. The server
 * computes them again when the record is saved; its figures are the ones stored.
 */

/** Product families (tank.Family): 0 none, 1 gasoline, 2 diesel, 3 jet fuel. */
const FAMILY_K: Record<number, [number, number]> = { 1: [346.4228, 0.4388], 2: [186.9696, 0.4862], 3: [594.5418, 0] };
/** Product codes (tank.Product*) → family, and their default densities at 20 °C. */
const PRODUCT_FAMILY: Record<number, number> = { 0: 2, 1: 1, 2: 1, 4: 3 };
const DEFAULT_DENSITY: Record<number, number> = { 0: 840, 1: 735, 2: 740, 4: 795 };

export interface V20Product {
  product: number;
  family: number;
  density20: number;
  k0?: number | null;
  k1?: number | null;
}

export interface V20Figures {
  density20: number;
  vcf20: number;
  v20L: number;
  massT: number;
}

function ctl(k0: number, k1: number, rho15: number, temp: number): number {
  const a = k0 / (rho15 * rho15) + k1 / rho15;
  const d = temp - 15;
  return Math.exp(-a * d * (1 + 0.8 * a * d));
}

const validDensity = (rho: number) => rho >= 500 && rho <= 1100;

/** VCF20 with coefficients k0, k1 for density rho20 at temp °C (1 when no conversion applies). */
export function vcf20K(k0: number, k1: number, rho20: number, temp: number): number {
  if ((k0 === 0 && k1 === 0) || !validDensity(rho20) || !Number.isFinite(temp)) return 1;
  let rho15 = rho20;
  for (let i = 0; i < 20; i++) {
    const next = rho20 / ctl(k0, k1, rho15, 20);
    const done = Math.abs(next - rho15) < 1e-9;
    rho15 = next;
    if (done) break;
  }
  return ctl(k0, k1, rho15, temp) / ctl(k0, k1, rho15, 20);
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** A compartment's figures: density (given, else the product's, else the code's default), VCF20, V20 (L, 1 decimal), mass (t, 3 decimals). */
export function computeV20(p: V20Product, vt: number, temp: number, density20 = 0): V20Figures {
  let rho = density20 > 0 ? density20 : p.density20 > 0 ? p.density20 : (DEFAULT_DENSITY[p.product] ?? 0);
  if (!Number.isFinite(rho)) rho = 0;
  let vcf = 1;
  if (p.k0 != null && p.k1 != null) vcf = vcf20K(p.k0, p.k1, rho, temp);
  else {
    const k = FAMILY_K[p.family || PRODUCT_FAMILY[p.product] || 0];
    if (k) vcf = vcf20K(k[0], k[1], rho, temp);
  }
  vcf = round(vcf, 6);
  const v20L = round(vt * vcf, 1);
  const massT = validDensity(rho) ? round((v20L * (rho - 1.1)) / 1e6, 3) : 0;
  return { density20: rho, vcf20: vcf, v20L, massT };
}
