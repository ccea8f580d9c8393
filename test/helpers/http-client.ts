import { API } from './test-app.js';

export interface HttpAnswer {
  status: number;
  /** The parsed JSON body (null when the body is not JSON). */
  body: any;
}

export interface HttpClient {
  base: string;
  /** A request under `{api_root}`, with the session cookie when given. */
  call(
    method: string,
    path: string,
    opts?: { cookie?: string; json?: unknown; raw?: { payload: Buffer; headers: Record<string, string> } },
  ): Promise<HttpAnswer>;
  /** `GET /healthz` (outside `{api_root}`). */
  health(): Promise<HttpAnswer>;
  /** Logs in through the real route and answers the Cookie header value. */
  login(username: string, password: string): Promise<string>;
}

/** A small client for a server process listening at `base` (the in-process tests use `app.inject`). */
export function httpClient(base: string): HttpClient {
  const answer = async (res: Response): Promise<HttpAnswer> => {
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      return { status: res.status, body: null };
    }
  };
  const call: HttpClient['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.raw?.headers };
    if (opts.cookie) headers.cookie = opts.cookie;
    let body: Buffer | string | undefined = opts.raw?.payload;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    }
    return answer(await fetch(`${base}${API}${path}`, { method, headers, body }));
  };
  return {
    base,
    call,
    health: async () => answer(await fetch(`${base}/healthz`)),
    async login(username, password) {
      const res = await fetch(`${base}${API}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      const cookie = res.headers.get('set-cookie')?.split(';')[0];
      if (res.status !== 200 || !cookie) throw new Error(`login failed (${res.status}): ${await res.text()}`);
      return cookie;
    },
  };
}
