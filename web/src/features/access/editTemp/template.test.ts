import { describe, expect, it } from 'vitest';
import { checkTemplate, expandTemplate, ROUTE_CORE } from './template';

const DISPATCH = ['plate', 'waybillNo', 'depot', 'stops', 'time'];
const ALARM = ['plate', 'level', 'alarm', 'time'];

describe('checkTemplate', () => {
  it.each([
    ['the default dispatch text', 'dispatch', ROUTE_CORE, DISPATCH, undefined],
    ['text around the route', 'dispatch', `【调度】{plate}：${ROUTE_CORE}\n注意安全`, DISPATCH, undefined],
    ['no route', 'dispatch', '{plate} 请装车', DISPATCH, { key: 'routeCore' }],
    ['text after the route on its line', 'dispatch', `${ROUTE_CORE}，谢谢`, DISPATCH, { key: 'routeLine' }],
    ['an unknown placeholder', 'alarmPush', '{plate} {driver}', ALARM, { key: 'unknownPlaceholder', name: 'driver' }],
    ['an unclosed brace', 'alarmPush', '报警 {plate', ALARM, { key: 'unbalanced', at: 4 }],
    ['a stray closing brace', 'alarmPush', '报警 plate}', ALARM, { key: 'unbalanced', at: 9 }],
    ['an empty placeholder', 'alarmPush', '报警 {}', ALARM, { key: 'emptyPlaceholder', at: 4 }],
    ['literal braces', 'alarmPush', '{{重要}} {plate}', ALARM, undefined],
    ['nothing', 'alarmPush', '  ', ALARM, { key: 'required' }],
  ])('%s', (_, kind, body, allowed, want) => {
    expect(checkTemplate(kind, body, allowed)).toEqual(want);
  });
});

describe('expandTemplate', () => {
  it('fills placeholders, keeps literal braces and leaves missing values empty', () => {
    expect(expandTemplate('{{{plate}}} {level}级：{alarm}{time}', ALARM, { plate: '沪A12345', level: 'II', alarm: '超速' })).toBe('{沪A12345} II级：超速');
  });
  it('leaves a broken template as written', () => {
    expect(expandTemplate('{plate', ALARM, { plate: 'x' })).toBe('{plate');
  });
});
