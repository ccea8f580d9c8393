/**
 * Text the service writes into a workbook must never turn into a formula when the file is opened
 * (CSV/formula injection): a value beginning with = + - @ (or a tab / carriage return, which some
 * programs strip first) gets a leading apostrophe, the usual OWASP advice. The parser removes it
 * again on import, so such values survive a round trip unchanged.
 */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
