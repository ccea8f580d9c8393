export interface ImportSessionsTable {
  id: string;
  uploader_id: number | null;
  uploader_name: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  content: Buffer;
  binding_mode: string;
  department_id: number | null;
  /** Parsed workbook (gzip-compressed JSON, see parsed-codec.ts), so any instance can preview or commit the session. */
  parsed: string;
  created_at: string;
  expires_at: string;
  committed_at: string | null;
}

export interface Tables {
  import_sessions: ImportSessionsTable;
}
