import { describe, expect, it } from 'vitest';
import { alarmOfMessage, displayOrder, gone, placeAlarm, rotationOrder, rotationStep, type AlarmEvent, type Camera, type Counter, type Slot } from './wall';

const cam = (carId: number, channelNo: number): Camera => ({ carId, channelNo, plate: `P${carId}`, channelName: `C${channelNo}` });
const slot = (carId: number, channelNo: number, seq: number, more: Partial<Slot> = {}): Slot => ({ ...cam(carId, channelNo), id: 100 + seq, source: 'alarm', pinned: false, seq, ...more });
const alarm = (carId: number, id = `a${carId}`): AlarmEvent => ({ id, carId, plate: `P${carId}`, typeName: '施封破坏', level: 1, at: 1_763_800_000_000 });
const keys = (w: readonly (Camera | null)[]) => w.map((s) => (s ? `${s.carId}-${s.channelNo}` : '-'));

describe('placeAlarm: which tiles an alarm takes', () => {
  const cases: { name: string; wall: (Slot | null)[]; count: number; cams: Camera[]; want: string[]; replaced: string[] }[] = [
    { name: 'an empty wall: the first free tiles', wall: [null, null, null, null], count: 4, cams: [cam(7, 1), cam(7, 2)], want: ['7-1', '7-2', '-', '-'], replaced: [] },
    { name: 'free tiles before any replacement', wall: [slot(1, 1, 1), null, slot(2, 1, 2), null], count: 4, cams: [cam(7, 1), cam(7, 2)], want: ['1-1', '7-1', '2-1', '7-2'], replaced: [] },
    { name: 'a full wall: the oldest tiles go', wall: [slot(1, 1, 5), slot(2, 1, 2), slot(3, 1, 9), slot(4, 1, 3)], count: 4, cams: [cam(7, 1), cam(7, 2)], want: ['1-1', '7-1', '3-1', '7-2'], replaced: ['2-1', '4-1'] },
    { name: 'a pinned tile stays even when oldest', wall: [slot(1, 1, 1, { pinned: true }), slot(2, 1, 2), slot(3, 1, 3), slot(4, 1, 4)], count: 4, cams: [cam(7, 1)], want: ['1-1', '7-1', '3-1', '4-1'], replaced: ['2-1'] },
    { name: 'every tile pinned: nothing comes up', wall: [slot(1, 1, 1, { pinned: true })], count: 1, cams: [cam(7, 1)], want: ['1-1'], replaced: [] },
    { name: 'a camera already up keeps its tile', wall: [slot(7, 2, 1), slot(2, 1, 2), null, null], count: 4, cams: [cam(7, 1), cam(7, 2)], want: ['7-2', '2-1', '7-1', '-'], replaced: [] },
    { name: 'more cameras than tiles: the first ones', wall: [null], count: 1, cams: [cam(7, 1), cam(7, 2), cam(7, 3)], want: ['7-1'], replaced: [] },
    { name: 'one alarm does not replace its own cameras', wall: [slot(1, 1, 1), slot(2, 1, 2)], count: 2, cams: [cam(7, 1), cam(7, 2), cam(7, 3)], want: ['7-1', '7-2'], replaced: ['1-1', '2-1'] },
    { name: 'tiles past the layout are not used', wall: [slot(1, 1, 1), null, null, null], count: 1, cams: [cam(7, 1)], want: ['7-1', '-', '-', '-'], replaced: ['1-1'] },
  ];
  it.each(cases)('$name', ({ wall, count, cams, want, replaced }) => {
    const n: Counter = { seq: 100, id: 500 };
    const r = placeAlarm(wall, count, alarm(7), cams, n);
    expect(keys(r.wall)).toEqual(want);
    expect(keys(r.replaced)).toEqual(replaced);
    // the alarm's tiles carry it and are now the newest
    for (const s of r.wall) if (s?.carId === 7) expect(s).toMatchObject({ source: 'alarm', alarm: { id: 'a7', typeName: '施封破坏' } });
  });

  it('a camera already up keeps its stream (same id); a new one gets a new id', () => {
    const n: Counter = { seq: 10, id: 50 };
    const r = placeAlarm([slot(7, 1, 1, { source: 'rotation' }), null], 2, alarm(7), [cam(7, 1), cam(7, 2)], n);
    expect(r.wall[0]).toMatchObject({ id: 101, source: 'alarm', seq: 11 });
    expect(r.wall[1]).toMatchObject({ id: 51, seq: 12 });
  });
});

describe('rotationOrder and rotationStep', () => {
  const cars = [
    { carId: 2, plate: 'B', channels: [{ channelNo: 3, name: 'c', enabled: true }, { channelNo: 1, name: 'a', enabled: true }, { channelNo: 2, name: 'b', enabled: false }] },
    { carId: 1, plate: 'A', channels: [{ channelNo: 1, name: 'x', enabled: true }] },
    { carId: 3, plate: 'C', channels: [] },
  ];
  it('orders the cameras car by car as chosen, channel by channel, enabled only', () => {
    expect(keys(rotationOrder(cars))).toEqual(['2-1', '2-3', '1-1']);
  });

  const order = [cam(1, 1), cam(1, 2), cam(2, 1), cam(2, 2), cam(3, 1)];
  const cases: { name: string; wall: (Slot | null)[]; count: number; cursor: number; want: string[]; next: number }[] = [
    { name: 'first page', wall: [null, null], count: 2, cursor: 0, want: ['1-1', '1-2'], next: 2 },
    { name: 'next page', wall: [null, null], count: 2, cursor: 2, want: ['2-1', '2-2'], next: 4 },
    { name: 'wraps round', wall: [null, null], count: 2, cursor: 4, want: ['3-1', '1-1'], next: 1 },
    { name: 'alarm and pinned tiles stay, the rest rotates', wall: [slot(9, 1, 1), slot(1, 2, 2, { source: 'rotation', pinned: true }), null], count: 3, cursor: 0, want: ['9-1', '1-2', '1-1'], next: 1 },
    { name: 'a camera the wall shows is not shown twice', wall: [slot(2, 1, 1), null, null], count: 3, cursor: 1, want: ['2-1', '1-2', '2-2'], next: 4 },
    { name: 'fewer cameras than tiles: the rest stay free', wall: [null, null, null, null, null, null], count: 6, cursor: 0, want: ['1-1', '1-2', '2-1', '2-2', '3-1', '-'], next: 0 },
    { name: 'every tile held: nothing moves', wall: [slot(9, 1, 1)], count: 1, cursor: 3, want: ['9-1'], next: 3 },
  ];
  it.each(cases)('$name', ({ wall, count, cursor, want, next }) => {
    const r = rotationStep(wall, count, order, cursor, { seq: 50, id: 50 });
    expect(keys(r.wall.slice(0, count))).toEqual(want);
    expect(r.cursor).toBe(next);
  });

  it('a camera picked again keeps its tile and stream; the replaced ones are returned', () => {
    const n: Counter = { seq: 10, id: 10 };
    const wall = [slot(1, 2, 1, { source: 'rotation', id: 7 }), slot(1, 1, 2, { source: 'rotation', id: 8 })];
    const r = rotationStep(wall, 2, [cam(1, 2), cam(2, 1)], 0, n);
    expect(keys(r.wall)).toEqual(['1-2', '2-1']);
    expect(r.wall[0]?.id).toBe(7);
    expect(keys(r.replaced)).toEqual(['1-1']);
    expect(keys(gone(r.replaced, r.wall))).toEqual(['1-1']);
  });
});

describe('displayOrder: newest first, empty tiles last', () => {
  it.each([
    { wall: [slot(1, 1, 3), slot(2, 1, 9), null, slot(3, 1, 5)], want: [2, 0, 3, 1] },
    { wall: [null, null], want: [0, 1] },
    { wall: [null, slot(1, 1, 1)], want: [1, 0] },
  ])('%#', ({ wall, want }) => {
    expect(displayOrder(wall, wall.length)).toEqual(want);
  });
});

describe('alarmOfMessage', () => {
  const msg = (data: Record<string, string>, key = 'alarm') => ({ key, code: 'sealBroken', timestamp: 1_763_800_000_000, data });
  it.each([
    { name: 'the type name in the console language', m: msg({ alarmId: '5', carId: '7', carNumber: '沪A·1', level: '1', 'typeName:zh-CN': '施封破坏', 'typeName:en-US': 'Seal broken' }), lang: 'en-US', want: { id: '5', carId: 7, plate: '沪A·1', typeName: 'Seal broken', level: 1 } },
    { name: 'zh-CN when the language has none', m: msg({ alarmId: '5', carId: '7', carNumber: '沪A·1', level: '2', 'typeName:zh-CN': '施封破坏' }), lang: 'zh-TW', want: { typeName: '施封破坏', level: 2 } },
    { name: 'the type code from an older server', m: msg({ alarmId: '5', carId: '7', type: 'sealBroken' }), lang: 'zh-CN', want: { typeName: 'sealBroken', plate: '7' } },
  ])('$name', ({ m, lang, want }) => {
    expect(alarmOfMessage(m, lang)).toMatchObject(want);
  });
  it.each([
    { name: 'a help request', m: msg({ carId: '7' }, 'help-3') },
    { name: 'no car', m: msg({ alarmId: '5' }) },
    { name: 'a bad car id', m: msg({ carId: 'x' }) },
  ])('ignores $name', ({ m }) => {
    expect(alarmOfMessage(m, 'zh-CN')).toBeNull();
  });
});
