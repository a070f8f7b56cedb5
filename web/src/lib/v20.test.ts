import { describe, expect, it } from 'vitest';
import { computeV20, vcf20K } from './v20';

const gasoline = { product: 2, family: 1, density20: 740 };
const diesel = { product: 0, family: 2, density20: 840 };

describe('computeV20', () => {
  it('meets the check values of DOMAIN.md §2', () => {
    expect(computeV20(gasoline, 10000, 30).vcf20).toBeCloseTo(0.9877, 4);
    expect(computeV20(gasoline, 10000, 0).vcf20).toBeCloseTo(1.02434, 5);
    expect(computeV20(diesel, 10000, 30).vcf20).toBeCloseTo(0.99153, 5);
    expect(vcf20K(186.9696, 0.4862, 840, 20)).toBe(1);
  });

  it('gives V20 and mass as the server stores them', () => {
    expect(computeV20(gasoline, 10000, 30)).toEqual({ density20: 740, vcf20: 0.987697, v20L: 9877, massT: 7.298 });
    expect(computeV20(gasoline, 10000, 20, 750).massT).toBe(7.489);
  });

  it('takes the product code family, its default density and the product own coefficients', () => {
    expect(computeV20({ product: 0, family: 0, density20: 0 }, 10000, 30).v20L).toBe(9915.3);
    expect(computeV20({ product: 0, family: 1, density20: 840, k0: 186.9696, k1: 0.4862 }, 10000, 30).v20L).toBe(9915.3);
    expect(computeV20({ product: 3, family: 0, density20: 0 }, 1000, 30)).toEqual({ density20: 0, vcf20: 1, v20L: 1000, massT: 0 });
  });
});
