import type { Executor } from '../../src/db/database.js';
import { CANONICAL_HEADER, row, workbookBuffer } from '../../src/modules/importer/parser/test-support.js';

/** Polls `probe` until it answers something other than undefined; fails after `ms`. */
export async function within<T>(ms: number, probe: () => Promise<T | undefined>): Promise<{ value: T; elapsed: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return { value, elapsed: Date.now() - started };
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** One permit of a generated workbook, as its content shows in the database after a commit. */
export interface GeneratedPermit {
  code: string;
  name: string;
  contact: string;
  risks: string[];
}

/**
 * Permits number `from`..`to`-1 of a generated catalogue, in the version called `tag`: the same
 * number gives the same code and name in every version, the tag changes the contact and the
 * risks, so two versions of one permit differ in content.
 */
export function generatedPermits(tag: string, from: number, to: number): GeneratedPermit[] {
  const out: GeneratedPermit[] = [];
  for (let i = from; i < to; i++) {
    const n = String(i).padStart(3, '0');
    out.push({
      code: `GEN${n}`,
      name: `生成许可事项${n}号`,
      contact: `${tag}-${n}`,
      risks: [1, 2, 3].slice(0, 1 + (i % 3)).map((k) => `${tag}版风险${n}-${k}`),
    });
  }
  return out;
}

/** A one-sheet workbook of the given permits in one region, all linked to `theme`. */
export function generatedWorkbook(permits: GeneratedPermit[], region: string, theme: string): Promise<Buffer> {
  const rows = permits.flatMap((p) =>
    p.risks.map((risk) => row({ 区域: region, 主题: theme, 许可事项: p.name, 事项编码: p.code, 对外咨询电话: p.contact, 风险点: risk, 风险等级: '中' })),
  );
  return workbookBuffer([CANONICAL_HEADER, ...rows]);
}

/** `code → contact|risk titles` of every generated permit a catalogue should hold. */
export function expectedContent(...layers: GeneratedPermit[][]): Record<string, string> {
  const out: Record<string, string> = {};
  // Later layers win: the state after committing them in this order.
  for (const layer of layers) for (const p of layer) out[p.code] = `${p.contact}|${p.risks.join('/')}`;
  return out;
}

/**
 * The same fingerprint of a region's permits read from the database, with a marker for any code stored twice (a
 * duplicated permit is exactly what a lost race would leave behind).
 */
export async function storedContent(db: Executor, regionId: number): Promise<Record<string, string>> {
  const permits = await db.selectFrom('permits').select(['id', 'code', 'contact_info']).where('region_id', '=', regionId).orderBy('id').execute();
  const risks = await db
    .selectFrom('risks as r')
    .innerJoin('permits as p', 'p.id', 'r.permit_id')
    .select(['r.permit_id', 'r.title'])
    .where('p.region_id', '=', regionId)
    .orderBy('r.permit_id')
    .orderBy('r.position')
    .execute();
  const titles = new Map<number, string[]>();
  for (const r of risks) titles.set(r.permit_id, [...(titles.get(r.permit_id) ?? []), r.title]);
  const out: Record<string, string> = {};
  for (const p of permits) {
    const content = `${p.contact_info}|${(titles.get(p.id) ?? []).join('/')}`;
    out[p.code!] = p.code! in out ? `DUPLICATE: ${out[p.code!]} + ${content}` : content;
  }
  return out;
}
