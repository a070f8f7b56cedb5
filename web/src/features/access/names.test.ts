import { describe, expect, it } from 'vitest';
import { ACCOUNT_RE, MAX_NICKNAME, plainName, validAccount } from './names';

describe('name rules (as the server: internal/org/names.go)', () => {
  it.each([
    ['li.si', true],
    ['wang_wu-2', true],
    ['ops@example.com', true],
    ['abc', true],
    ['a'.repeat(32), true],
    ['li', false],
    ['a'.repeat(33), false],
    ['li si', false],
    ['李四账号', false],
    ['li/si', false],
    ['adm\u202enim', false],
  ])('account %j → %s', (name, ok) => {
    expect(ACCOUNT_RE.test(name)).toBe(ok);
    expect(validAccount(name)).toBe(ok);
  });

  it('keeps an existing account name that predates the rule, but not a new one breaking it', () => {
    expect(validAccount('老账号', '老账号')).toBe(true);
    expect(validAccount('新账号', '老账号')).toBe(false);
  });

  it.each([
    ['小李', true],
    ['Mr. Li (东区)', true],
    ['', true],
    ['小李\n管理员', false],
    ['小\t李', false],
    ['苏州\r\n车队', false],
    ['小李\u202e员理管', false],
    ['\u2066小李', false],
    ['小\u200f李', false],
    ['小\u2028李', false],
    ['苏州\u001b[31m车队', false],
  ])('displayed name %j plain → %s', (name, ok) => {
    expect(plainName(name)).toBe(ok);
  });

  it('nickname limit is the server one', () => {
    expect(MAX_NICKNAME).toBe(32);
  });
});
