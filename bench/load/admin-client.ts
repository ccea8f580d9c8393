import { multipartBody } from '../../test/helpers/multipart.js';

/** One answer of the API: status 0 when the request itself failed (connection refused, reset). */
export interface ApiAnswer {
  status: number;
  /** The parsed JSON body, or null when it is not JSON. */
  json: any;
  text: string;
}

export const ok = (a: ApiAnswer) => a.status >= 200 && a.status < 300;

/** A one-line account of a failed answer, for the error list. */
export const describeAnswer = (a: ApiAnswer) => `${a.status || 'no answer'} ${a.text.slice(0, 300)}`;

/**
 * A logged-in administrator driving the real HTTP API as the admin page does: the session
 * cookie on every request, and an Origin equal to the server's on state-changing ones (the
 * same-origin guard refuses anything else).
 */
export class AdminClient {
  private cookie = '';

  constructor(
    private readonly origin: string,
    private readonly api: string,
  ) {}

  async login(username: string, password: string): Promise<void> {
    const res = await fetch(`${this.api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.origin },
      body: JSON.stringify({ username, password }),
    });
    const cookie = res.headers.getSetCookie()[0];
    if (res.status !== 200 || !cookie) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    this.cookie = cookie.split(';')[0];
  }

  get(path: string): Promise<ApiAnswer> {
    return this.request('GET', path);
  }

  send(method: 'POST' | 'DELETE' | 'PATCH', path: string, body: Record<string, unknown> = {}): Promise<ApiAnswer> {
    return this.request(method, path, JSON.stringify(body), { 'content-type': 'application/json' });
  }

  upload(path: string, filename: string, content: Buffer): Promise<ApiAnswer> {
    const { payload, headers } = multipartBody({}, { file: { filename, content } });
    return this.request('POST', path, payload, headers);
  }

  private async request(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<ApiAnswer> {
    try {
      const res = await fetch(`${this.api}${path}`, {
        method,
        headers: { ...headers, cookie: this.cookie, ...(method === 'GET' ? {} : { origin: this.origin }) },
        body,
      });
      const text = await res.text();
      let json: any = null;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON: the text is reported as it is
      }
      return { status: res.status, json, text };
    } catch (err) {
      return { status: 0, json: null, text: err instanceof Error ? err.message : String(err) };
    }
  }
}
