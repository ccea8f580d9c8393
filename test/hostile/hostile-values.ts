import type { Random } from './random.js';

/**
 * The hostile values the fuzz pass puts into every text field, query parameter and path parameter,
 * grouped by what they attack. Strings are what a query string, a form or a path can carry; the
 * JSON body additionally gets the wrong types.
 */

const MB = 1024 * 1024;

export const SQL_INJECTION = [
  "' OR '1'='1",
  "' OR 1=1 --",
  '" OR ""="',
  '1; DROP TABLE permits; --',
  "'); DELETE FROM risks; --",
  "1' UNION SELECT username, password_hash FROM users --",
  "admin'--",
  "%' AND 1=1 --",
  '1 AND (SELECT 1 FROM pg_sleep(0)) IS NOT NULL',
  "'||(select sqlite_version())||'",
  '\\x27; select 1; --',
  '%',
  '_',
  '%%_%\\',
];

export const PATH_TRAVERSAL = [
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '....//....//etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/etc/passwd',
  'file:///etc/passwd',
  '..',
  '.',
  'C:\\Windows\\System32\\drivers\\etc\\hosts',
  '../../package.json',
  'import-step-upload.svg/../../../package.json',
];

export const CONTROL_CHARACTERS = [
  '\u0000',
  'a\u0000b',
  '\u0000' + "' OR 1=1 --",
  '\u0001\u0002\u001f\u007f',
  '\r\n\r\nInjected: header',
  '\t',
  '\u0085\u2028\u2029',
  '\u202e\u202d反向',
  '\ufeffBOM',
  '\u200b\u200c\u200d',
];

export const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud83d', '\udc00x', '许可\ud800事项'];

export const MARKUP_AND_TEMPLATES = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '${7*7}',
  '{{7*7}}',
  '%s%s%s%n',
  '=1+2',
  "+cmd|' /C calc'!A0",
  '-2+3',
  '@SUM(A1:A9)',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
];

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

export const NUMBER_LIKE = ['0', '-1', '1.5', '1e309', 'NaN', 'Infinity', '-0', '9007199254740993', '0x10', ' 7 ', '１２'];

export const ODD_TEXT = ['', '   ', '\u3000', '😀👨‍👩‍👧', 'é', 'ＡＢＣ全角', '食品经营许可', 'null', 'undefined', 'true'];

/** Long values: the 1 MB ones only fit a query string or a form; the JSON body limit is 1 MB as a whole. */
export const LONG = {
  ascii1mb: () => 'a'.repeat(MB),
  chinese1mb: () => '字'.repeat(MB / 3),
  justUnderBody: () => 'x'.repeat(MB - 200),
  tenK: () => 'long-'.repeat(2000),
};

const STRING_GROUPS = [SQL_INJECTION, PATH_TRAVERSAL, CONTROL_CHARACTERS, LONE_SURROGATES, MARKUP_AND_TEMPLATES, PROTOTYPE_KEYS, NUMBER_LIKE, ODD_TEXT];

/** One hostile string (1 MB ones now and then). */
export function hostileString(rng: Random, allowHuge = true): string {
  if (allowHuge && rng.chance(0.02)) return rng.pick([LONG.ascii1mb, LONG.chinese1mb])();
  if (rng.chance(0.04)) return LONG.tenK();
  return rng.pick(rng.pick(STRING_GROUPS));
}

function deepNesting(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** A value of the wrong type for a JSON field, or a hostile string. */
export function hostileJsonValue(rng: Random): unknown {
  switch (rng.int(12)) {
    case 0:
      return rng.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, 90, 100, -0]);
    case 1:
      return rng.pick([true, false]);
    case 2:
      return null;
    case 3:
      return rng.pick<object>([{}, { $gt: '' }, { $ne: null }, { length: 1e9 }, { toString: 'x', valueOf: 1 }]);
    case 4:
      return rng.pick<unknown[]>([[], [''], ['a', 'b'], [1, 2], [null], [[]], [{}]]);
    case 5:
      return Array.from({ length: 5000 }, (_, i) => `v${i}`);
    case 6:
      return deepNesting(rng.pick([50, 2000]), hostileString(rng, false));
    case 7:
      return [hostileString(rng, false), hostileString(rng, false)];
    case 8:
      return LONG.tenK();
    default:
      return hostileString(rng, false);
  }
}

/** A key of an object the service reads: a field it knows, or one it does not. */
export function hostileKey(rng: Random): string {
  return rng.pick([...PROTOTYPE_KEYS, 'a[b]', 'a.b', '', ' ', '\u0000', 'x'.repeat(300), '$where', 'regions[]']);
}

/**
 * Encodes a path or query value byte for byte. A lone surrogate cannot be UTF-8, so it becomes the
 * bytes a careless client would send (an invalid sequence) rather than making the test throw.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function percentEncode(value: string): string {
  if (!LONE_SURROGATE.test(value)) return encodeURIComponent(value);
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}
