import type { CellValue } from 'exceljs';
import { restoreNeutralized } from '../template/neutralize-formula.js';

/**
 * The text a user sees in a cell, trimmed (full-width and other Unicode spaces count as blank).
 * Formulas give their cached result and are never evaluated; a value the service wrote with
 * a protective leading apostrophe (see neutralizeFormula) reads back without it.
 */
export function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  switch (typeof value) {
    case 'string':
      return cleanString(value);
    case 'number':
      return formatNumber(value);
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    default:
      break;
  }
  if (value instanceof Date) return formatDate(value);
  const v = value as unknown as Record<string, unknown>;
  if (Array.isArray(v.richText)) return cleanString(richTextString(v.richText));
  if ('formula' in v || 'sharedFormula' in v) return cellText(v.result as CellValue | undefined);
  if ('hyperlink' in v || 'text' in v) return cellText(v.text as CellValue | undefined);
  if (typeof v.error === 'string') return v.error;
  return '';
}

/**
 * The formula of a cell that has one but no cached result (a file written by a program that does
 * not calculate, saved without opening in Excel); null for any other cell. The service never
 * calculates: such a cell reads as blank and the preview says why.
 */
export function formulaWithoutResult(value: CellValue | undefined): string | null {
  if (!value || typeof value !== 'object' || value instanceof Date) return null;
  const v = value as unknown as Record<string, unknown>;
  if (!('formula' in v || 'sharedFormula' in v)) return null;
  if (v.result !== undefined && v.result !== null && v.result !== '') return null;
  const formula = v.formula ?? v.sharedFormula;
  return typeof formula === 'string' ? formula : '';
}

function richTextString(runs: unknown[]): string {
  let out = '';
  for (const run of runs) {
    const text = (run as { text?: unknown }).text;
    if (typeof text === 'string') out += text;
  }
  return out;
}

const EDGE_INVISIBLES = /^[\u200b-\u200d\u2060]+|[\u200b-\u200d\u2060]+$/g;

function cleanString(raw: string): string {
  let s = raw.indexOf('\r') >= 0 ? raw.replace(/\r\n?/g, '\n') : raw;
  s = s.trim();
  if (s.length > 0 && (s.charCodeAt(0) === 0x200b || s.charCodeAt(s.length - 1) === 0x200b)) {
    s = s.replace(EDGE_INVISIBLES, '').trim();
  }
  // Undo the protection neutralizeFormula adds: "'=1+2" was written for the text "=1+2".
  return restoreNeutralized(s);
}

/** Numbers as Excel's General format shows them: integers plainly, no binary float noise. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return '';
  if (Number.isInteger(n)) return String(n);
  return String(Number(n.toPrecision(15)));
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Dates as YYYY-MM-DD (exceljs builds them in UTC); a time of day, when present, follows. */
export function formatDate(d: Date): string {
  const t = d.getTime();
  if (Number.isNaN(t)) return '';
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  if (h === 0 && m === 0 && s === 0) return date;
  return `${date} ${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ''}`;
}
