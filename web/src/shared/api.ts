import { ElMessage } from 'element-plus';
import { ref } from 'vue';
import { apiRoot } from './api-root';
import { chineseMessage } from './words';

export { apiRoot } from './api-root';

export const pageUrls = {
  search: `${apiRoot}/`,
  dbAdmin: `${apiRoot}/db_admin`,
  superAdmin: `${apiRoot}/admin/super`,
  debug: `${apiRoot}/admin/v2-debug`,
  login(next?: string): string {
    return next ? `${apiRoot}/login?next=${encodeURIComponent(next)}` : `${apiRoot}/login`;
  },
};

/** A failed call: the HTTP status and the server's `message` (already shown unless `silent`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Envelope<T = unknown> {
  success: boolean;
  message?: string;
  data: T;
  code?: string;
}

type QueryValue = string | number | boolean | null | undefined | (string | number)[];
export type Query = Record<string, QueryValue>;

export interface CallOptions {
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Do not show the failure (the caller handles it). */
  silent?: boolean;
}

export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return `${apiRoot}${path}${qs ? `?${qs}` : ''}`;
}

function messageOf(status: number, body: Record<string, unknown>): string {
  if (typeof body.message === 'string' && body.message) return chineseMessage(body.message);
  if (typeof body.error === 'string' && body.error) return chineseMessage(body.error);
  if (status === 0) return '网络连接失败，请检查网络后重试';
  return `请求失败（HTTP ${status}）`;
}

/** Set when the server refuses a call until the initial password is changed; the layout then asks for it. */
export const passwordChangeRequired = ref(false);

function goToLogin(): void {
  window.location.href = pageUrls.login(window.location.pathname + window.location.search + window.location.hash);
}

/**
 * The one place a response becomes data or an error: a 401 outside the login calls sends the
 * user to the login page; any other failure shows the server's message (unless silent) and throws.
 */
function settle<T>(status: number, body: Record<string, unknown>, path: string, silent: boolean): Envelope<T> {
  const ok = status >= 200 && status < 300 && body.success !== false;
  if (ok) return body as unknown as Envelope<T>;
  const message = messageOf(status, body);
  if (status === 401 && !path.startsWith('/auth/')) {
    goToLogin();
  } else if (status === 403 && body.code === 'MUST_CHANGE_PASSWORD') {
    passwordChangeRequired.value = true;
  } else if (!silent) {
    ElMessage.error({ message, grouping: true, duration: 5000 });
  }
  throw new ApiError(status, message, body);
}

async function readJson(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Shows a failure that was requested silently and then not handled otherwise. */
export function showError(err: unknown): void {
  const message = err instanceof ApiError ? err.message : '操作失败，请稍后再试';
  ElMessage.error({ message, grouping: true, duration: 5000 });
}

/** Calls the API and returns the whole envelope. */
export async function callApi<T>(method: string, path: string, opts: CallOptions = {}): Promise<Envelope<T>> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.query), {
      method,
      credentials: 'same-origin',
      headers: opts.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  } catch {
    return settle<T>(0, {}, path, opts.silent ?? false);
  }
  return settle<T>(res.status, await readJson(res), path, opts.silent ?? false);
}

/** The usual call: the envelope's `data`. */
export const api = {
  get: async <T>(path: string, query?: Query, opts?: CallOptions) => (await callApi<T>('GET', path, { ...opts, query })).data,
  post: async <T>(path: string, body?: unknown, opts?: CallOptions) => (await callApi<T>('POST', path, { ...opts, body: body ?? {} })).data,
  patch: async <T>(path: string, body: unknown, opts?: CallOptions) => (await callApi<T>('PATCH', path, { ...opts, body })).data,
  delete: async <T>(path: string, query?: Query, opts?: CallOptions) => (await callApi<T>('DELETE', path, { ...opts, query })).data,
};

/** Uploads a multipart form, reporting progress (0–100); resolves with the envelope's `data`. */
export function uploadForm<T>(path: string, form: FormData, onProgress?: (percent: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.responseType = 'text';
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    const finish = (status: number, text: string) => {
      let body: Record<string, unknown>;
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      try {
        resolve(settle<T>(status, body, path, false).data);
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    };
    xhr.onload = () => finish(xhr.status, xhr.responseText);
    xhr.onerror = () => finish(0, '');
    xhr.send(form);
  });
}

/** `filename*=UTF-8''…` (RFC 5987) first, then a plain `filename=`. */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain ? plain[1].trim() : fallback;
}

/** Downloads a file the API answers as an attachment; a failure shows the server's message. */
export async function downloadFile(path: string, query?: Query, fallbackName = 'download'): Promise<void> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path, query), { credentials: 'same-origin' });
  } catch {
    settle(0, {}, path, false);
    return;
  }
  if (!res.ok) {
    settle(res.status, await readJson(res), path, false);
    return;
  }
  const name = filenameFromDisposition(res.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
