import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { SearchDoc } from '../../src/modules/search/engine/types.js';
import { corpusDocs, loadCorpus } from '../search/corpus.js';
import { scaleCorpus } from '../search/scale-corpus.js';

export interface ScaleOptions {
  permits: number;
  risksPerPermit: number;
}

export interface ScaleCatalogue {
  regions: number;
  permits: number;
  risks: number;
  seconds: number;
}

/** The synthetic scale corpus of the search bench (the real catalogue replicated over generated regions). */
export function scaleDocs(opts: ScaleOptions): SearchDoc[] {
  return scaleCorpus(corpusDocs(loadCorpus()), opts.permits, opts.risksPerPermit);
}

/** Gives each distinct key a row id (1, 2, …) in first-seen order. */
class Ids {
  readonly byKey = new Map<string, number>();
  id(key: string): { id: number; isNew: boolean } {
    const known = this.byKey.get(key);
    if (known !== undefined) return { id: known, isNew: false };
    const id = this.byKey.size + 1;
    this.byKey.set(key, id);
    return { id, isNew: true };
  }
}

/**
 * A fresh SQLite catalogue holding `docs`: the schema made by the service's own migrations, then
 * every row written straight with prepared statements in one transaction (the import path would
 * take far longer for a million risks, and is not what this bench measures). Row ids are given
 * here, so links need no read-back. Each synthetic region offers the themes its permits carry.
 */
export async function writeScaleCatalogue(path: string, docs: SearchDoc[]): Promise<ScaleCatalogue> {
  const started = process.hrtime.bigint();
  const dbh = connect({ kind: 'sqlite', path, url: `sqlite:${path}` });
  try {
    await migrateToLatest(dbh.db);
    const sqlite = dbh.sqlite!;
    const now = new Date().toISOString();
    const insert = (table: string, columns: string[]) =>
      sqlite.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
    const region = insert('regions', ['id', 'code', 'name', 'created_at']);
    const theme = insert('themes', ['id', 'name', 'created_at']);
    const regionTheme = insert('region_themes', ['region_id', 'theme_id']);
    const department = insert('approval_departments', ['id', 'name']);
    const permit = insert('permits', [
      'id',
      'region_id',
      'code',
      'name',
      'implementation_level',
      'internal_contact',
      'contact_info',
      'visible',
      'created_at',
      'updated_at',
    ]);
    const permitTheme = insert('permit_themes', ['permit_id', 'theme_id']);
    const permitDepartment = insert('permit_approval_departments', ['permit_id', 'approval_department_id', 'position']);
    const risk = insert('risks', ['permit_id', 'position', 'risk_type', 'title', 'description', 'legal_basis', 'consequence', 'prevention', 'level']);

    const regions = new Ids();
    const themes = new Ids();
    const regionThemes = new Ids();
    const departments = new Ids();
    let risks = 0;
    sqlite.transaction(() => {
      docs.forEach((d, i) => {
        const permitId = i + 1;
        const r = regions.id(d.regionId);
        if (r.isNew) region.run(r.id, d.regionId, d.regionName, now);
        permit.run(permitId, r.id, d.code, d.name, d.implementationLevel, d.internalContact, d.contactInfo, d.visible ? 1 : 0, now, now);
        for (const name of new Set(d.themes.map((t) => t.name))) {
          const t = themes.id(name);
          if (t.isNew) theme.run(t.id, name, now);
          permitTheme.run(permitId, t.id);
          if (regionThemes.id(`${r.id}:${t.id}`).isNew) regionTheme.run(r.id, t.id);
        }
        [...new Set(d.approvalDepartments.map((n) => n.trim()))].forEach((name, position) => {
          const a = departments.id(name);
          if (a.isNew) department.run(a.id, name);
          permitDepartment.run(permitId, a.id, position);
        });
        d.risks.forEach((x, position) => {
          risk.run(permitId, position, x.riskType, x.title, x.description, x.legalBasis, x.consequence, x.prevention, x.level);
        });
        risks += d.risks.length;
      });
    })();
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { regions: regions.byKey.size, permits: docs.length, risks, seconds };
  } finally {
    await dbh.close();
  }
}
