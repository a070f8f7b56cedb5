import { describe, expect, it } from 'vitest';
import { bearingText } from './bearing';
import zh from '../i18n/zh-CN.json';
import en from '../i18n/en-US.json';

/*
 * Bearing table (degrees clockwise from north):
 *   0 正北 North          (0,45) 北偏东 East of north
 *  45 东北 North-east     (45,90) 东偏北 North of east
 *  90 正东 East           (90,135) 东偏南 South of east
 * 135 东南 South-east     (135,180) 南偏东 East of south
 * 180 正南 South          (180,225) 南偏西 West of south
 * 225 西南 South-west     (225,270) 西偏南 South of west
 * 270 正西 West           (270,315) 西偏北 North of west
 * 315 西北 North-west     (315,360) 北偏西 West of north
 * ≥360, negative, empty or not a number → the raw value.
 */
const text = (dict: Record<string, unknown>, v: number | string) => {
  const r = bearingText(v);
  const leaf = r.key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], dict) as string;
  return leaf.replace('{{value}}', String(r.args?.value ?? ''));
};

describe('bearingText', () => {
  it.each([
    [0, '正北', 'North'], [10, '北偏东', 'East of north'], [45, '东北', 'North-east'], [60, '东偏北', 'North of east'],
    [90, '正东', 'East'], [100, '东偏南', 'South of east'], [135, '东南', 'South-east'], [170, '南偏东', 'East of south'],
    [180, '正南', 'South'], [200, '南偏西', 'West of south'], [225, '西南', 'South-west'], [250, '西偏南', 'South of west'],
    [270, '正西', 'West'], [300, '西偏北', 'North of west'], [315, '西北', 'North-west'], [359.5, '北偏西', 'West of north'],
    ['90', '正东', 'East'], [360, '360', '360'], [725, '725', '725'], [-5, '-5', '-5'], ['abc', 'abc', 'abc'],
  ])('%s → %s / %s', (v, zhWant, enWant) => {
    expect(text(zh, v)).toBe(zhWant);
    expect(text(en, v)).toBe(enWant);
  });
});
