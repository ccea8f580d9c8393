/** Small wording helpers for what the commands print. */

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
