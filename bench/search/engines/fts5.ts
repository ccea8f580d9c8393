import Database from 'better-sqlite3';
import { normalizeText } from '../../../src/modules/search/engine/normalize.js';
import type { SearchDoc } from '../../../src/modules/search/engine/types.js';
import { docFields, PEER_BOOST, type BenchEngine } from './engine.js';
import { queryWords } from './chinese-tokens.js';

/**
 * SQLite FTS5 with the trigram tokenizer on normalised text: query words of 3+ characters go
 * to MATCH (ranked by bm25 with field weights); shorter words, which trigrams cannot index,
 * fall back to LIKE on the short fields (name, themes, departments, risk titles). The two
 * lists are fused by reciprocal rank.
 */
export class Fts5Engine implements BenchEngine {
  readonly name = 'SQLite FTS5 trigram';
  private db: Database.Database | null = null;

  build(docs: SearchDoc[]): void {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE docs USING fts5(name, themes, depts, titles, body, permit UNINDEXED, region UNINDEXED, tokenize='trigram')`);
    const insert = db.prepare('INSERT INTO docs (name, themes, depts, titles, body, permit, region) VALUES (?, ?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (const d of docs) {
        if (!d.visible) continue;
        const f = docFields(d);
        insert.run(
          normalizeText(f.name),
          normalizeText(f.themes),
          normalizeText(f.depts),
          normalizeText(f.titles),
          normalizeText(f.body),
          d.permitId,
          d.regionId,
        );
      }
    })();
    this.db = db;
  }

  search(query: string, regionIds: string[] | null): string[] {
    const db = this.db!;
    const words = queryWords(query).filter((w) => w.trim() !== '');
    const long = words.filter((w) => w.length >= 3);
    const short = words.filter((w) => w.length === 2);
    const regionSql = regionIds ? ` AND region IN (${regionIds.map(() => '?').join(',') || "''"})` : '';
    const regionArgs = regionIds ?? [];
    const fused = new Map<string, number>();
    const add = (ids: string[]) => ids.forEach((id, r) => fused.set(id, (fused.get(id) ?? 0) + 1 / (r + 1)));
    if (long.length > 0) {
      const match = long.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
      const b = PEER_BOOST;
      const rows = db
        .prepare(
          `SELECT permit FROM docs WHERE docs MATCH ?${regionSql} ORDER BY bm25(docs, ${b.name}, ${b.themes}, ${b.depts}, ${b.titles}, ${b.body}) LIMIT 50`,
        )
        .all(match, ...regionArgs) as { permit: string }[];
      add(rows.map((r) => r.permit));
    }
    if (short.length > 0) {
      const like = short.map((w) => `%${w}%`);
      const score = short.map(() => `(name LIKE ?) * 10 + (themes LIKE ?) * 5 + (depts LIKE ?) * 4 + (titles LIKE ?) * 2.5`).join(' + ');
      const where = short.map(() => '(name LIKE ? OR themes LIKE ? OR depts LIKE ? OR titles LIKE ?)').join(' OR ');
      const args = [...like.flatMap((l) => [l, l, l, l]), ...like.flatMap((l) => [l, l, l, l]), ...regionArgs];
      const rows = db.prepare(`SELECT permit, ${score} AS s FROM docs WHERE (${where})${regionSql} ORDER BY s DESC LIMIT 50`).all(...args) as {
        permit: string;
      }[];
      add(rows.map((r) => r.permit));
    }
    return [...fused.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([id]) => id);
  }
}
