import type { Static } from '@sinclair/typebox';
import { toCount } from '../../db/dialect.js';
import { recordIdText } from '../../http/record-id.js';
import type { PermitFileListing } from './files.openapi.js';
import type { listPermitFiles } from './permit-files.repository.js';

type PermitFileRow = Awaited<ReturnType<typeof listPermitFiles>>['rows'][number];

/** An archived workbook of the list: what it is, who brought it, and the region and permits it holds. */
export function presentPermitFile(r: PermitFileRow): Static<typeof PermitFileListing>['files'][number] {
  return {
    id: String(r.id),
    filename: r.filename,
    content_type: r.content_type,
    size: r.size,
    uploaded_by: r.uploaded_by,
    created_at: r.created_at,
    permit_count: toCount(r.permit_count),
    region_id: recordIdText(r.region_id),
    region_name: r.region_name ?? null,
  };
}
