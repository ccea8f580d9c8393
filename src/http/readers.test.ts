import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { isBlank, readFlag, readInt, readList, readNullableString, readString, readStrictInt } from './readers.js';

describe('shared input readers', () => {
  it('treats absent, null and whitespace-only strings as blank', () => {
    expect([undefined, null, '', '   ', '\t\n'].map(isBlank)).toEqual([true, true, true, true, true]);
    expect([0, false, 'x', ' a '].map(isBlank)).toEqual([false, false, false, false]);
  });

  it('reads the first non-blank alias, trimmed', () => {
    expect(readString({ region_id: '  12 ' }, 'region', 'region_id')).toBe('12');
    expect(readString({ region: ' ', region_id: 'b' }, 'region', 'region_id')).toBe('b');
    expect(readString({ region: 'a', region_id: 'b' }, 'region', 'region_id')).toBe('a');
    expect(readString({}, 'region')).toBeUndefined();
    expect(readString({ n: 5 }, 'n')).toBe('5');
    expect(() => readString({ n: { $gt: '' } }, 'n')).toThrow(AppError);
    expect(() => readString({ n: ['a'] }, 'n')).toThrow('参数 n 应为字符串');
  });

  it('turns blank into null only when the field was given', () => {
    expect(readNullableString({ d: '  ' }, 'd')).toBeNull();
    expect(readNullableString({}, 'd')).toBeUndefined();
    expect(readNullableString({ d: ' x ' }, 'd')).toBe('x');
  });

  it('reads lists from arrays, single strings and aliases, dropping blanks and duplicates', () => {
    expect(readList({ regions: ['a', ' ', 'b', 'a'] }, 'regions', 'region', 'regions[]')).toEqual(['a', 'b']);
    expect(readList({ region: 'x' }, 'regions', 'region')).toEqual(['x']);
    expect(readList({ 'regions[]': ['p', 'q'] }, 'regions', 'regions[]')).toEqual(['p', 'q']);
    expect(readList({}, 'regions')).toEqual([]);
  });

  it('reads truthy flags from the set 1,true,yes,on, case-insensitively', () => {
    for (const v of ['1', 'true', 'TRUE', 'yes', 'On', true, 1]) expect(readFlag({ f: v }, 'f', false)).toBe(true);
    for (const v of ['0', 'false', 'no', 'off', 'y', 'maybe', false, 0]) expect(readFlag({ f: v }, 'f', true)).toBe(false);
    expect(readFlag({}, 'f', true)).toBe(true);
    expect(readFlag({ f: ' ' }, 'f', false)).toBe(false);
  });

  it('reads integers with defaults, clamps and default-on-out-of-range', () => {
    const rule = { def: 20, min: 1, max: 100 };
    expect(readInt({ limit: '50' }, 'limit', rule)).toBe(50);
    expect(readInt({ limit: 500 }, 'limit', rule)).toBe(100);
    expect(readInt({ limit: '0' }, 'limit', rule)).toBe(1);
    expect(readInt({ limit: '-3' }, 'limit', rule)).toBe(1);
    expect(readInt({ limit: 'abc' }, 'limit', rule)).toBe(20);
    expect(readInt({ limit: '2.5' }, 'limit', rule)).toBe(20);
    expect(readInt({}, 'limit', rule)).toBe(20);
    const batch = { def: 1000, min: 100, max: 10000, outOfRange: 'default' as const };
    expect(readInt({ b: '50' }, 'b', batch)).toBe(1000);
    expect(readInt({ b: '20000' }, 'b', batch)).toBe(1000);
    expect(readInt({ b: '500' }, 'b', batch)).toBe(500);
  });

  it('reads strict integers or refuses with the given message', () => {
    expect(readStrictInt({ g: '80' }, 'g', 'bad')).toBe(80);
    expect(readStrictInt({ g: '' }, 'g', 'bad')).toBeUndefined();
    expect(() => readStrictInt({ g: 'x' }, 'g', '权限等级必须是数字')).toThrow('权限等级必须是数字');
  });
});
