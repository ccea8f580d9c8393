/**
 * The PostgreSQL server doing a checkpoint's database work on its own, for reference next to the
 * checkpoint figures: the same tables copied to and from files on the server's own disk, with no
 * client, compression or storing of chunks in the path. The load is what a restore asks of the
 * server, in the same transaction shape: empty the tables, drop their keys and indexes,
 * `COPY … FREEZE`, build everything again, commit.
 *
 * Server-side files need a superuser (or pg_read_server_files / pg_write_server_files) and a
 * directory the server may write, on the server's machine: the embedded server of the bench has
 * both. The tables end up holding what they held.
 */
import { emptyTables } from '../src/modules/checkpoints/checkpoint-restorer.js';
import { COVERED_TABLES } from '../src/modules/checkpoints/checkpoint-tables.js';
import { dropPostgresConstraints, restorePostgresConstraints } from '../src/modules/checkpoints/deferred-constraints.js';
import { liveColumns } from '../src/modules/checkpoints/live-schema.js';
import { quoteIdent, type RawConnection } from '../src/db/raw-connection.js';

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function copyStatements(conn: RawConnection, dir: string, direction: 'to' | 'from'): Promise<string[]> {
  const statements: string[] = [];
  for (const table of COVERED_TABLES) {
    const columns = (await liveColumns(conn, table.name)).map((c) => quoteIdent(c.name)).join(', ');
    const file = literal(`${dir}/${table.name}.bin`);
    const options = direction === 'to' ? '(format binary)' : '(freeze, format binary)';
    statements.push(`copy ${quoteIdent(table.name)} (${columns}) ${direction} ${file} ${options}`);
  }
  return statements;
}

/** Every covered table to a file in `dir`, in one snapshot transaction like a checkpoint's copy. */
export async function copyTablesToFiles(conn: RawConnection, dir: string): Promise<void> {
  const statements = await copyStatements(conn, dir, 'to');
  await conn.transaction('snapshot', async () => {
    for (const statement of statements) await conn.run(statement);
  });
}

/** Every covered table replaced by its file in `dir`, in one transaction like a restore's. */
export async function loadTablesFromFiles(conn: RawConnection, dir: string): Promise<void> {
  const statements = await copyStatements(conn, dir, 'from');
  await conn.transaction('write', async () => {
    await emptyTables(conn);
    const dropped = await dropPostgresConstraints(conn);
    for (const statement of statements) await conn.run(statement);
    await restorePostgresConstraints(conn, dropped);
  });
}
