/**
 * Personal data a question may hold, masked before it is stored (docs/query-log.md): identity
 * card numbers, bank card numbers, mobile numbers, landline numbers with their area code, e-mail
 * addresses. A number counts only standing alone — not inside a longer run of letters and digits
 * such as a permit code (511A0005200004). A bare seven- or eight-digit number is left: it is as
 * often an amount or a date (5000000, 20240101) as a local telephone number.
 */
const PERSONAL = new RegExp(
  [
    String.raw`(?<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)`,
    String.raw`(?<id>(?<![0-9A-Za-z])(?:\d{6} ?\d{8} ?\d{3}[\dXx]|\d{15})(?![0-9A-Za-z]))`,
    String.raw`(?<card>(?<![0-9A-Za-z])(?:\d{4}[ -]?){3}\d{4}(?:\d{1,3})?(?![0-9A-Za-z]))`,
    String.raw`(?<mobile>(?<![0-9A-Za-z])(?:\+?86[ -]?)?1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?![0-9A-Za-z]))`,
    String.raw`(?<phone>(?<![0-9A-Za-z])0\d{2,3}[ -]?[2-9]\d{6,7}(?![0-9A-Za-z]))`,
  ].join('|'),
  'g',
);

const MASKS: Record<string, string> = { email: '[邮箱]', id: '[身份证号]', card: '[银行卡号]', mobile: '[手机号]', phone: '[电话号码]' };

/**
 * The text with its personal data masked; `rest` transforms the text between (the log's
 * normalisation, which would otherwise break an address or a number apart before it is seen).
 * Full-width characters are read as their ASCII forms.
 */
export function maskPersonalData(text: string, rest: (s: string) => string = (s) => s): string {
  const folded = text.normalize('NFKC');
  let out = '';
  let at = 0;
  for (const m of folded.matchAll(PERSONAL)) {
    const kind = Object.keys(MASKS).find((k) => m.groups?.[k] !== undefined)!;
    out += rest(folded.slice(at, m.index)) + MASKS[kind];
    at = m.index + m[0].length;
  }
  return out + rest(folded.slice(at));
}
