import type { Static } from '@sinclair/typebox';
import { recordIdText } from '../../http/record-id.js';
import { presentThemeRef, type ThemeRef } from '../themes/themes.presenter.js';
import type { DeletePermitResult as DeletePermitResultSchema, Permit } from './permits.openapi.js';
import type { PermitRow } from './permits.repository.js';
import { copyRiskFields, type Risk, type RiskFields } from './risk.schema.js';

export type RiskPayload = Static<typeof Risk>;

/** The permit payload: what every route that answers with a permit gives (risks where asked). */
export type PermitPayload = Static<typeof Permit> & { risks?: RiskPayload[] };

export function presentRisk(r: { id: number; position: number } & RiskFields): RiskPayload {
  return { id: String(r.id), position: r.position, ...copyRiskFields(r) };
}

/** What a permit's payload holds beside its own row. */
export interface PermitParts {
  /** Its themes, by name: the first is its theme. */
  themes: Array<{ id: number; name: string }>;
  approvalDepartments: string[];
  riskCount: number;
  /** Its risks in order, where the payload carries them. */
  risks?: Array<{ id: number; position: number } & RiskFields>;
}

/** One permit row, with its region's name, as the permit payload. */
export function presentPermit(p: PermitRow & { region_name: string }, parts: PermitParts): PermitPayload {
  const themes = parts.themes.map(presentThemeRef);
  return {
    id: String(p.id),
    region_id: String(p.region_id),
    region_name: p.region_name,
    code: p.code,
    name: p.name,
    implementation_level: p.implementation_level,
    internal_contact: p.internal_contact,
    contact_info: p.contact_info,
    visible: p.visible === 1,
    source_file_id: recordIdText(p.source_file_id),
    themes,
    theme: themes[0] ?? null,
    approval_departments: parts.approvalDepartments,
    risk_count: parts.riskCount,
    ...(parts.risks ? { risks: parts.risks.map(presentRisk) } : {}),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

/** The archived workbook a permit came from, in short. */
export function presentSourceFile(file: { id: number; filename: string } | undefined) {
  return file ? { id: String(file.id), filename: file.filename } : null;
}

export type DeletePermitResult = Static<typeof DeletePermitResultSchema>;

/** A deleted permit: what it was, the theme it was deleted under and the snapshot batch that keeps it. */
export function presentDeletedPermit(row: PermitRow, theme: ThemeRef, snapshotBatchId: number, riskCount: number): DeletePermitResult {
  return {
    deleted: true,
    permit_id: String(row.id),
    permit_name: row.name,
    region_id: String(row.region_id),
    theme_id: theme.id,
    snapshot_batch_id: String(snapshotBatchId),
    risk_count: riskCount,
  };
}
