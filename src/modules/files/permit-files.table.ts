import type { Generated } from 'kysely';

export interface PermitFilesTable {
  id: Generated<number>;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  content: Buffer;
  uploaded_by: string;
  uploader_id: number | null;
  region_id: number | null;
  created_at: string;
}

export interface Tables {
  permit_files: PermitFilesTable;
}
