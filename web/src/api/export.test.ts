import { describe, expect, it } from 'vitest';
import { fileNameFrom } from './export';

describe('fileNameFrom (spec §7 exports)', () => {
  it.each([
    [{ 'content-disposition': "attachment; filename*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97-20260318.xlsx" }, '操作日志-20260318.xlsx'],
    [{ 'content-disposition': 'attachment; filename="report.xlsx"' }, 'report.xlsx'],
    [{ 'content-disposition': 'attachment; filename=plain.xlsx' }, 'plain.xlsx'],
    [{ 'content-disposition': 'attachment; filename="fallback.xlsx"; filename*=UTF-8\'\'%E6%8A%A5%E8%A1%A8.xlsx' }, '报表.xlsx'],
    [{ filename: '%E8%BD%A6%E8%BE%86.xlsx' }, '车辆.xlsx'],
    [{}, 'export.xlsx'],
  ])('%j → %s', (headers, want) => {
    expect(fileNameFrom(headers)).toBe(want);
  });
});
