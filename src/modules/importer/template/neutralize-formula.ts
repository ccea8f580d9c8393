/**
 * Text that a spreadsheet would take for a formula: it starts with = + - @ (or a tab / carriage
 * return, which some programs strip first), possibly behind apostrophes that are part of the text.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * Every text cell the service writes into a workbook goes through here (CSV/formula injection):
 * text a spreadsheet could evaluate gets a leading apostrophe, the usual OWASP advice. Callers
 * write the result as a plain string value, which exceljs stores as a string cell (never a
 * formula). The parser undoes it (restoreNeutralized), so every value survives a round trip.
 */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The inverse of neutralizeFormula, applied by the parser to every cell's text. */
export function restoreNeutralized(text: string): string {
  return text.charCodeAt(0) === 0x27 && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}
