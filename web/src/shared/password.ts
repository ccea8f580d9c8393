const LETTERS = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';

/** A random 12-character password of letters and digits (no look-alikes such as l/1, O/0). */
export function generatePassword(length = 12): string {
  const all = LETTERS + DIGITS;
  const bytes = crypto.getRandomValues(new Uint32Array(length));
  const chars = Array.from(
    bytes,
    (b, i) => (i === 0 ? LETTERS : i === 1 ? DIGITS : all)[b % (i === 0 ? LETTERS.length : i === 1 ? DIGITS.length : all.length)],
  );
  // Move the guaranteed letter and digit to random places.
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = bytes[i] % (i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}
