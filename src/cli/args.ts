import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export interface ParsedArgs {
  values: OptionValues;
  positionals: string[];
}

/** node:util's messages, shortened to what the operator typed wrong. */
function usageMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(message);
  if (ambiguous) return `option ${ambiguous[1]} needs a value (write ${ambiguous[1]}=<value> for one starting with "-")`;
  const missing = /^Option '([^' ]+)[^']*' argument missing/.exec(message);
  if (missing) return `option ${missing[1]} needs a value`;
  const flag = /^Option '([^']+)' does not take an argument/.exec(message);
  if (flag) return `option ${flag[1]} takes no value`;
  return message.split('\n')[0];
}

/** Strict parsing: an unknown option or a missing value is a usage error, never ignored. */
export function parseCommandLine(args: string[], options: OptionSpec): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    return { values: values, positionals };
  } catch (err) {
    throw new UsageError(usageMessage(err));
  }
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

export function listOption(values: OptionValues, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/** An integer option within bounds; anything else is a usage error naming the range. */
export function intOption(values: OptionValues, name: string, min: number, max: number): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}
