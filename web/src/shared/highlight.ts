export interface TextPart {
  text: string;
  hit: boolean;
}

/**
 * Splits text into plain and matched parts (longest term first, case-insensitive), so matches are
 * rendered as separate text nodes: nothing is ever built as an HTML string.
 */
export function splitByTerms(text: string, terms: readonly string[]): TextPart[] {
  const wanted = [...new Set(terms.map((t) => t.trim()).filter((t) => t.length > 0))].sort((a, b) => b.length - a.length);
  if (!text || wanted.length === 0) return text ? [{ text, hit: false }] : [];
  const lower = text.toLowerCase();
  const lowerTerms = wanted.map((t) => t.toLowerCase());
  const parts: TextPart[] = [];
  let plainStart = 0;
  let i = 0;
  while (i < text.length) {
    const term = lowerTerms.find((t) => lower.startsWith(t, i));
    if (!term) {
      i += 1;
      continue;
    }
    if (i > plainStart) parts.push({ text: text.slice(plainStart, i), hit: false });
    parts.push({ text: text.slice(i, i + term.length), hit: true });
    i += term.length;
    plainStart = i;
  }
  if (plainStart < text.length) parts.push({ text: text.slice(plainStart), hit: false });
  return parts;
}
