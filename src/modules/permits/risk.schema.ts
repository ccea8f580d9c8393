import { Type, type Static } from '@sinclair/typebox';
import { Component, Id, Nullable } from '../../http/openapi/shapes.js';

const text = (description?: string) => Nullable(Type.String(), description);

/**
 * One legal risk of a permit as the API sends it. In a file of its own (nothing but TypeBox and
 * the shapes) so that the pages can take its type with a type-only import (web/src/shared/types.ts).
 */
export const Risk = Component('Risk', 'One legal risk of a permit.', {
  id: Id(),
  position: Type.Integer({ description: "Order within the permit's risk list." }),
  risk_type: text('风险类型.'),
  title: Type.String({ description: '风险点: the first line of the cell.' }),
  description: text('The lines of the 风险点 cell after the first.'),
  legal_basis: text('法律依据.'),
  consequence: text('法律后果.'),
  prevention: text('防范建议.'),
  level: text('风险等级: 高, 中 or 低.'),
});

/**
 * The seven fields of a risk, declared once: the `Risk` schema less its id and position. The
 * `risks` and `snapshot_risks` tables, the import's comparison, the payload and the edit read
 * their fields from here.
 */
export type RiskFields = Omit<Static<typeof Risk>, 'id' | 'position'>;

/** Their names, for code that goes through the fields one by one. */
export const RISK_FIELD_NAMES = ['risk_type', 'title', 'description', 'legal_basis', 'consequence', 'prevention', 'level'] as const;

// Fails to compile when a field of the schema is missing from RISK_FIELD_NAMES or one listed is not a field.
true satisfies [Exclude<keyof RiskFields, (typeof RISK_FIELD_NAMES)[number]>, Exclude<(typeof RISK_FIELD_NAMES)[number], keyof RiskFields>] extends [
  never,
  never,
]
  ? true
  : false;

/** Just the seven fields of a risk row (a copy without its id, position or other columns). */
export function copyRiskFields(r: RiskFields): RiskFields {
  return {
    risk_type: r.risk_type,
    title: r.title,
    description: r.description,
    legal_basis: r.legal_basis,
    consequence: r.consequence,
    prevention: r.prevention,
    level: r.level,
  };
}

/** `legal_basis` → `legalBasis`. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The seven fields under their camelCase names, as the import's parser and the search engine hold a risk. */
export type RiskTexts = { [K in keyof RiskFields as CamelCase<K>]: RiskFields[K] };
