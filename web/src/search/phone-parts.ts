/** A telephone number as written: mobile, landline with or without its area code, a 123xx hotline. */
const PHONE = /(?:\+?86[ -]?)?(?:1[3-9]\d[ -]?\d{4}[ -]?\d{4}|0\d{2,3}[ -]?\d{7,8})(?!\d)|(?<![\d-])(?:\d{7,8}|123\d{2})(?!\d)/g;

export interface PhonePart {
  text: string;
  /** The `tel:` address when the part is a number. */
  tel?: string;
}

/** Splits contact text into plain parts and numbers one tap can call. */
export function phoneParts(text: string): PhonePart[] {
  const parts: PhonePart[] = [];
  let at = 0;
  for (const m of text.matchAll(PHONE)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index) });
    parts.push({ text: m[0], tel: `tel:${m[0].replace(/[^\d+]/g, '')}` });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}
