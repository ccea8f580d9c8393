import type { ParseLimits } from './types.js';

/**
 * What one workbook may hold. The cell, shared-string and size limits are ten times what the
 * largest real workbook holds (docs/import.md lists the measurements, `scripts/measure-workbooks.ts`
 * prints them); the service reads the same limits from its settings (src/config.ts), with these
 * as their defaults.
 */
export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = {
  maxRows: 200_000,
  maxCells: 300_000,
  maxSharedStrings: 35_000,
  maxCellChars: 5_000,
  maxUncompressedBytes: 24 * 1024 * 1024,
};
