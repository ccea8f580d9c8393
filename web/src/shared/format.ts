const pad = (n: number) => String(n).padStart(2, '0');

/** ISO time → `2026-11-22 08:30:05` in the viewer's time zone; blank stays `—`. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || Number.isNaN(bytes)) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

export function formatNumber(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : n.toLocaleString('zh-CN');
}

/** Microseconds → `1.23 毫秒` / `850 微秒`. */
export function formatMicros(us: number | null | undefined): string {
  if (us === null || us === undefined) return '—';
  return us >= 1000 ? `${(us / 1000).toFixed(2)} 毫秒` : `${Math.round(us)} 微秒`;
}

export const text = (v: string | null | undefined): string => (v === null || v === undefined || v === '' ? '—' : v);
