export interface SessionsTable {
  /** SHA-256 of the cookie token: a leaked table does not leak usable sessions. */
  id: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  ip: string | null;
  user_agent: string | null;
}

export interface LoginFailuresTable {
  id: import('kysely').Generated<number>;
  username: string;
  ip: string | null;
  created_at: string;
}

export interface Tables {
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
}
