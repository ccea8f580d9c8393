import { MAX_PARAMS, quoteIdent, type RawConnection } from './raw-connection.js';

/**
 * Multi-row INSERTs of `batchSize` rows, each split further when batchSize × columns would pass
 * the database's parameter limit. Statements are cached by shape, so the thousands of full
 * batches of a large table share one prepared statement.
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
      text = `insert into ${quoteIdent(this.table)} (${this.columns.map(quoteIdent).join(', ')}) values ${Array(rows)
        .fill(tuple)
        .join(', ')}`;
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
 * as null and written afterwards: the rows need no parent-first order, and a cycle still restores.
 */
export class SelfReferences {
  private readonly pending: Array<{ key: unknown[]; values: unknown[] }> = [];

  constructor(
    private readonly table: string,
    private readonly key: readonly string[],
    private readonly refs: readonly string[],
  ) {}

  /** Takes the self-references out of `rows` (in place), given the rows' column names. */
  holdBack(columns: readonly string[], rows: unknown[][]): void {
    const refIndexes = this.refs.map((r) => columns.indexOf(r));
    if (this.refs.length === 0 || refIndexes.some((i) => i < 0)) return;
    const keyIndexes = this.key.map((k) => columns.indexOf(k));
    for (const row of rows) {
      if (refIndexes.every((i) => row[i] === null)) continue;
      this.pending.push({ key: keyIndexes.map((i) => row[i]), values: refIndexes.map((i) => row[i]) });
      for (const i of refIndexes) row[i] = null;
    }
  }

  async apply(conn: RawConnection): Promise<void> {
    if (this.pending.length === 0) return;
    const set = this.refs.map((r) => `${quoteIdent(r)} = ?`).join(', ');
    const where = this.key.map((k) => `${quoteIdent(k)} = ?`).join(' and ');
    const text = `update ${quoteIdent(this.table)} set ${set} where ${where}`;
    for (const { key, values } of this.pending) await conn.run(text, [...values, ...key]);
  }
}
