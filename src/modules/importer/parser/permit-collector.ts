import { COLUMN_BY_FIELD } from './columns.js';
import { FindingList, MESSAGES } from './findings.js';
import { splitMulti, splitRiskPoint } from './normalize.js';
import type { FieldKey, ParsedPermit } from './types.js';

/** Trimmed text of every mapped field in one data row ('' when blank or unmapped). */
export type RowValues = Record<FieldKey, string>;

/** What the sheet parser has already validated for the row. */
export interface RowFacts {
  row: number;
  values: RowValues;
  /** Fields whose cell is a merged (non-master) cell: its value repeats the master's. */
  merged: ReadonlySet<FieldKey> | null;
  /** 检索可见 parsed: undefined when blank or invalid (the invalid case is already reported). */
  visible: boolean | undefined;
  level: string | null;
}

export const RISK_FIELDS: readonly FieldKey[] = ['riskType', 'riskPoint', 'legalBasis', 'consequence', 'prevention', 'level'];

/** Scalar permit columns whose later, different values are reported rather than taken. */
const CHECKED_FIELDS = ['permitName', 'permitCode', 'implementationLevel', 'internalContact', 'contactInfo'] as const;
type CheckedField = (typeof CHECKED_FIELDS)[number];
const PERMIT_PROPERTY: Record<CheckedField, 'name' | 'code' | 'implementationLevel' | 'internalContact' | 'contactInfo'> = {
  permitName: 'name',
  permitCode: 'code',
  implementationLevel: 'implementationLevel',
  internalContact: 'internalContact',
  contactInfo: 'contactInfo',
};

interface PermitState {
  permit: ParsedPermit;
  /** Row that first set each field, for conflict messages. */
  setAt: Partial<Record<FieldKey, number>>;
  visibleSet: boolean;
}

/** The permit block the rows are being added to; state null marks a block without a name. */
interface Block {
  state: PermitState | null;
  name: string;
  code: string;
  region: string;
}

/**
 * Groups data rows into permits. A row starts a new block when its permit name, code or region
 * differs from the block's; blank permit cells carry down from the block. Blocks of the same
 * identity (region + code, else region + name) within the sheet are merged into one permit.
 */
export class PermitCollector {
  readonly permits: ParsedPermit[] = [];
  private readonly byIdentity = new Map<string, PermitState>();
  private block: Block | null = null;

  constructor(
    private readonly findings: FindingList,
    private readonly letters: ReadonlyMap<FieldKey, string>,
    private readonly hasRiskColumn: boolean,
  ) {}

  addRow(facts: RowFacts): void {
    const v = facts.values;
    const b = this.block;
    const startsNew =
      b === null ||
      (v.permitName !== '' && v.permitName !== b.name) ||
      (v.permitCode !== '' && b.code !== '' && v.permitCode !== b.code) ||
      (v.region !== '' && b.region !== '' && v.region !== b.region);
    if (startsNew) this.startBlock(facts);
    else if (b.state) this.apply(b.state, facts);
    if (this.block?.state && v.permitCode !== '' && this.block.code === '') this.block.code = v.permitCode;
    this.addRisk(facts);
  }

  private startBlock(facts: RowFacts): void {
    const v = facts.values;
    if (v.permitName === '') {
      this.findings.error('MISSING_PERMIT_NAME', facts.row, this.letter('permitName'), '许可事项', MESSAGES.missingPermitName());
      this.block = { state: null, name: '', code: v.permitCode, region: v.region };
      return;
    }
    const identity = `${v.region}\u0001${v.permitCode !== '' ? `c:${v.permitCode}` : `n:${v.permitName}`}`;
    let state = this.byIdentity.get(identity);
    if (state) {
      this.apply(state, facts);
    } else {
      state = { permit: newPermit(facts), setAt: {}, visibleSet: facts.visible !== undefined };
      for (const f of ['region', ...CHECKED_FIELDS, 'approvalDepartments'] as const) if (v[f] !== '') state.setAt[f] = facts.row;
      if (facts.visible !== undefined) state.setAt.visible = facts.row;
      this.byIdentity.set(identity, state);
      this.permits.push(state.permit);
    }
    this.block = { state, name: v.permitName, code: v.permitCode, region: v.region };
  }

  /** Adds a further row of an existing permit: fills what is still empty, reports what disagrees. */
  private apply(state: PermitState, facts: RowFacts): void {
    const { permit } = state;
    const v = facts.values;
    permit.rows.push(facts.row);
    for (const field of CHECKED_FIELDS) {
      const text = v[field];
      if (text === '') continue;
      const prop = PERMIT_PROPERTY[field];
      const kept = permit[prop];
      if (kept === null) {
        permit[prop] = text;
        state.setAt[field] = facts.row;
      } else if (kept !== text) this.conflict(state, facts, field, text, kept);
    }
    if (v.region !== '' && permit.region === null) permit.region = v.region;
    if (v.approvalDepartments !== '') {
      const depts = splitMulti(v.approvalDepartments);
      if (permit.approvalDepartments.length === 0) {
        permit.approvalDepartments = depts;
        state.setAt.approvalDepartments = facts.row;
      } else if (depts.join('、') !== permit.approvalDepartments.join('、')) {
        this.conflict(state, facts, 'approvalDepartments', v.approvalDepartments, permit.approvalDepartments.join('、'));
      }
    }
    for (const theme of splitMulti(v.themes)) if (!permit.themes.includes(theme)) permit.themes.push(theme);
    if (facts.visible !== undefined) {
      if (!state.visibleSet) {
        permit.visible = facts.visible;
        state.visibleSet = true;
        state.setAt.visible = facts.row;
      } else if (facts.visible !== permit.visible) {
        this.conflict(state, facts, 'visible', v.visible, permit.visible ? '是' : '否');
      }
    }
  }

  private conflict(state: PermitState, facts: RowFacts, field: FieldKey, value: string, kept: string): void {
    if (facts.merged?.has(field)) return;
    const canonical = COLUMN_BY_FIELD.get(field)!.canonical;
    const firstRow = state.setAt[field] ?? state.permit.rows[0];
    this.findings.warning('PERMIT_FIELD_CONFLICT', facts.row, this.letter(field), canonical, MESSAGES.permitFieldConflict(canonical, value, firstRow, kept));
  }

  private addRisk(facts: RowFacts): void {
    if (!this.hasRiskColumn) return;
    const v = facts.values;
    if (!RISK_FIELDS.some((f) => v[f] !== '')) return;
    if (v.riskPoint === '') {
      this.findings.error('BLANK_RISK_POINT', facts.row, this.letter('riskPoint'), '风险点', MESSAGES.blankRiskPoint());
      return;
    }
    const permit = this.block?.state?.permit;
    if (!permit) return;
    const { title, description } = splitRiskPoint(v.riskPoint);
    permit.risks.push({
      row: facts.row,
      riskType: v.riskType || null,
      title,
      description,
      legalBasis: v.legalBasis || null,
      consequence: v.consequence || null,
      prevention: v.prevention || null,
      level: facts.level,
    });
  }

  private letter(field: FieldKey): string | null {
    return this.letters.get(field) ?? null;
  }
}

function newPermit(facts: RowFacts): ParsedPermit {
  const v = facts.values;
  return {
    rows: [facts.row],
    region: v.region || null,
    code: v.permitCode || null,
    name: v.permitName,
    implementationLevel: v.implementationLevel || null,
    approvalDepartments: splitMulti(v.approvalDepartments),
    internalContact: v.internalContact || null,
    contactInfo: v.contactInfo || null,
    themes: splitMulti(v.themes),
    visible: facts.visible ?? true,
    risks: [],
  };
}
