import { MAX_PARAMS, quoteIdent, type RawConnection } from '../../db/raw-connection.js';

/**
 * Multi-row INSERTs from values held in JavaScript (the kept sessions), at most `batchSize` rows
 * per statement and fewer when batchSize × columns would pass the database's parameter limit.
 */
export class RowInserter {
  private readonly statements = new Map<number, string>();
  private readonly rowsPerStatement: number;

  constructor(
    private readonly conn: RawConnection,
    private readonly table: string,
    private readonly columns: readonly string[],
    batchSize: number,
  ) {
    const byParams = Math.floor(MAX_PARAMS[conn.kind] / Math.max(1, columns.length));
    this.rowsPerStatement = Math.max(1, Math.min(batchSize, byParams));
  }

  private statement(rows: number): string {
    let text = this.statements.get(rows);
    if (!text) {
      const tuple = `(${this.columns.map(() => '?').join(', ')})`;
      const names = this.columns.map(quoteIdent).join(', ');
      text = `insert into ${quoteIdent(this.table)} (${names}) values ${Array(rows).fill(tuple).join(', ')}`;
      this.statements.set(rows, text);
    }
    return text;
  }

  async insert(rows: readonly unknown[][]): Promise<void> {
    for (let start = 0; start < rows.length; start += this.rowsPerStatement) {
      const part = rows.slice(start, start + this.rowsPerStatement);
      await this.conn.run(this.statement(part.length), part.flat());
    }
  }
}

/**
 * Values of self-referencing columns (a department's parent), held back while the rows go in
 * with null there and written afterwards: the rows need no parent-first order, and even a cycle
 * restores.
 */
export class SelfReferences {
  private readonly pending: Array<{ key: unknown[]; values: unknown[] }> = [];

  constructor(
    private readonly table: string,
    private readonly key: readonly string[],
    readonly refs: readonly string[],
  ) {}

  /** Notes the self-references of stored rows laid out as `columns`. */
  collect(columns: readonly string[], rows: readonly unknown[][]): void {
    const refIndexes = this.refs.map((r) => columns.indexOf(r)).filter((i) => i >= 0);
    if (refIndexes.length === 0) return;
    const keyIndexes = this.key.map((k) => columns.indexOf(k));
    for (const row of rows) {
      if (refIndexes.every((i) => row[i] === null)) continue;
      this.pending.push({ key: keyIndexes.map((i) => row[i]), values: refIndexes.map((i) => row[i]) });
    }
  }

  async apply(conn: RawConnection, columns: readonly string[]): Promise<void> {
    const refs = this.refs.filter((r) => columns.includes(r));
    if (this.pending.length === 0 || refs.length === 0) return;
    const set = refs.map((r) => `${quoteIdent(r)} = ?`).join(', ');
    const where = this.key.map((k) => `${quoteIdent(k)} = ?`).join(' and ');
    const text = `update ${quoteIdent(this.table)} set ${set} where ${where}`;
    for (const { key, values } of this.pending) await conn.run(text, [...values, ...key]);
  }
}
