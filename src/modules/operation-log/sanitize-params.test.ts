import { describe, expect, it } from 'vitest';
import { sanitizeParams } from './sanitize-params.js';

const HIDDEN = '[已隐藏]';

describe('sanitizeParams', () => {
  it('hides credentials, session ids and file contents under any key that names them', () => {
    const keys = [
      'password',
      'Password',
      'old_password',
      'new_password',
      'default_password',
      'passwd',
      'pwd',
      'secret',
      'client_secret',
      'token',
      'api_token',
      'cookie',
      'session_id',
      'sessionId',
      'sessionid',
      'content',
      'file',
      'buffer',
    ];
    for (const key of keys) expect(sanitizeParams({ [key]: 'S3CRET', keep: 'ok' }), key).toEqual({ [key]: HIDDEN, keep: 'ok' });
  });

  it('looks into nested objects and arrays (JSON bodies) as into flat form fields', () => {
    expect(sanitizeParams({ username: 'zjj', password: 'S3CRET' })).toEqual({ username: 'zjj', password: HIDDEN });
    expect(sanitizeParams({ overrides: { 表一: { password: 'S3CRET', region: '甲区' } } })).toEqual({
      overrides: { 表一: { password: HIDDEN, region: '甲区' } },
    });
    expect(sanitizeParams({ users: [{ name: 'a', password: 'S3CRET' }, 'text'] })).toEqual({ users: [{ name: 'a', password: HIDDEN }, 'text'] });
    // A whole object under a secret key goes, whatever it holds.
    expect(sanitizeParams({ token: { value: 'S3CRET' } })).toEqual({ token: HIDDEN });
  });

  it('never stores binary content, and bounds depth, width and text length', () => {
    expect(sanitizeParams({ data: Buffer.from('workbook bytes') })).toEqual({ data: '[binary]' });
    const deep = { a: { b: { c: { d: { password: 'S3CRET' } } } } };
    expect(JSON.stringify(sanitizeParams(deep))).not.toContain('S3CRET');
    expect(sanitizeParams(deep)).toEqual({ a: { b: { c: { d: '[…]' } } } });
    expect((sanitizeParams({ text: 'x'.repeat(600) }) as { text: string }).text).toHaveLength(501);
    const wide = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(sanitizeParams(wide) as object)).toHaveLength(50);
    expect(sanitizeParams(null)).toBeNull();
    expect(sanitizeParams(undefined)).toBeNull();
    expect(sanitizeParams(7)).toBe(7);
  });
});
