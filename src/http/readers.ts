import { badRequest } from './errors.js';

/** Request input as Fastify hands it over: query string, JSON object or flat form fields. */
export type Input = Record<string, unknown> | undefined | null;

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);

/** 'Blank' as the interface defines it: absent, null, or a string empty after trimming. */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

function scalarText(name: string, v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badRequest(`参数 ${name} 应为字符串`);
}

/** The first non-blank value among a field and its aliases, trimmed; undefined when all are blank. */
export function readString(input: Input, ...names: string[]): string | undefined {
  if (!input) return undefined;
  for (const name of names) {
    if (!Object.hasOwn(input, name)) continue;
    const v = input[name];
    if (isBlank(v)) continue;
    const text = scalarText(name, v);
    if (text !== '') return text;
  }
  return undefined;
}

/** Like readString, but blank gives null (for "blank becomes null" fields) and absent gives undefined. */
export function readNullableString(input: Input, ...names: string[]): string | null | undefined {
  if (!input) return undefined;
  const present = names.find((n) => Object.hasOwn(input, n));
  if (present === undefined) return undefined;
  return readString(input, ...names) ?? null;
}

/** A field that may be one string or an array of strings (repeated query parameter): blank entries dropped. */
export function readList(input: Input, ...names: string[]): string[] {
  if (!input) return [];
  const out: string[] = [];
  for (const name of names) {
    if (!Object.hasOwn(input, name)) continue;
    const v = input[name];
    const values = Array.isArray(v) ? v : [v];
    for (const item of values) {
      if (isBlank(item)) continue;
      const text = scalarText(name, item);
      if (text !== '' && !out.includes(text)) out.push(text);
    }
  }
  return out;
}

/** Truthy flag: one of 1, true, yes, on (case-insensitive); blank gives the default. */
export function readFlag(input: Input, name: string, def: boolean): boolean {
  const v = input?.[name];
  if (isBlank(v)) return def;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1;
  if (typeof v !== 'string') return false;
  return TRUTHY.has(v.trim().toLowerCase());
}

export interface IntRule {
  def: number;
  min?: number;
  max?: number;
  /** 'clamp' (default) pulls an out-of-range value to the bound; 'default' replaces it by `def`. */
  outOfRange?: 'clamp' | 'default';
}

/** An integer with a default for blank or non-integer input, clamped (or defaulted) to its range. */
export function readInt(input: Input, name: string, rule: IntRule): number {
  const v = input?.[name];
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) n = Number(v.trim());
  else return rule.def;
  if (!Number.isSafeInteger(n)) return rule.def;
  const { min = -Infinity, max = Infinity } = rule;
  if (n >= min && n <= max) return n;
  if (rule.outOfRange === 'default') return rule.def;
  return Math.min(max, Math.max(min, n));
}

/** A strict integer field: blank → undefined, anything not an integer → 400 with the given message. */
export function readStrictInt(input: Input, name: string, message: string): number | undefined {
  const v = input?.[name];
  if (isBlank(v)) return undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v.trim());
  throw badRequest(message);
}

/** A JSON body, form body or query string as a plain record (anything else is treated as empty). */
export function asInput(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
