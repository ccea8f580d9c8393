import { describe, expect, it } from 'vitest';
import { parseRecordId } from './record-id.js';

describe('parseRecordId', () => {
  it('reads decimal ids from 1 to 2147483647, as text (trimmed) or a JSON number', () => {
    expect(parseRecordId('1')).toBe(1);
    expect(parseRecordId(' 42 ')).toBe(42);
    expect(parseRecordId('007')).toBe(7);
    expect(parseRecordId('2147483647')).toBe(2_147_483_647);
    expect(parseRecordId(42)).toBe(42);
  });

  it('answers null for anything else, so it never reaches an integer column', () => {
    for (const raw of [
      '2147483648',
      '9999999999',
      '123456789012345',
      '99999999999999999999',
      '0',
      '-1',
      '1e3',
      '1.5',
      '0x10',
      'abc',
      '',
      ' ',
      '1 or 1=1',
      '１２',
      undefined,
      null,
      0,
      -1,
      1.5,
      2_147_483_648,
      1e21,
      Number.NaN,
      {},
      ['1'],
    ]) {
      expect(parseRecordId(raw), String(raw)).toBeNull();
    }
  });
});
