import { describe, expect, it } from 'vitest';
import { keepOpen } from './useTreeExpanded';

describe('keepOpen', () => {
  it.each([
    { name: 'first groups', prev: [], groups: ['g-1', 'g-2'], want: ['g-1', 'g-2'] },
    { name: 'an opened car stays open', prev: ['g-1', 'c-7'], groups: ['g-1', 'g-3'], want: ['g-1', 'g-3', 'c-7'] },
    { name: 'a closed group opens again', prev: ['c-7'], groups: ['g-1'], want: ['g-1', 'c-7'] },
    { name: 'a group no longer shown is dropped', prev: ['g-9', 'c-7'], groups: ['g-1'], want: ['g-1', 'c-7'] },
    { name: 'channel keys stay too', prev: ['v-7-1', 'c-7'], groups: [], want: ['v-7-1', 'c-7'] },
    { name: 'no duplicates', prev: ['c-7', 'c-7'], groups: ['g-1'], want: ['g-1', 'c-7'] },
  ])('$name', ({ prev, groups, want }) => {
    expect(keepOpen(prev, groups)).toEqual(want);
  });
});
