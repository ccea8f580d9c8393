import type { Insertable } from 'kysely';
import type { PermitsTable } from '../../src/modules/permits/permits.table.js';
import type { RiskFields } from '../../src/modules/permits/risk.schema.js';

/** A permits row for a test that inserts one directly: what it names, the rest blank and visible. */
export function permitRow(regionId: number, code: string | null, name: string, rest: Partial<Insertable<PermitsTable>> = {}): Insertable<PermitsTable> {
  return {
    region_id: regionId,
    code,
    name,
    implementation_level: null,
    internal_contact: null,
    contact_info: null,
    visible: 1,
    source_file_id: null,
    created_at: 'x',
    updated_at: 'x',
    ...rest,
  };
}

/** A risk's seven fields for a test that inserts one directly: its title and what it names, the rest blank. */
export function blankRisk(title: string, rest: Partial<RiskFields> = {}): RiskFields {
  return { risk_type: null, title, description: null, legal_basis: null, consequence: null, prevention: null, level: null, ...rest };
}
