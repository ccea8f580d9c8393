/**
 * The PostgreSQL server doing a checkpoint's database work on its own, for reference next to the
 * checkpoint figures: the same tables copied to and from files on the server's own disk, with no
 * client, compression or storing of chunks in the path. The load is what a restore asks of the
 * server, in the same transaction shape: drop the keys and indexes, empty the tables,
 * `COPY … FREEZE`, build everything again, commit.
 *
 * Server-side files need a superuser (or pg_read_server_files / pg_write_server_files) and a
 * directory the server may write, on the server's machine: the embedded server of the bench has
 * both. The tables end up holding what they held.
 */
import type pg from 'pg';
import { COVERED_TABLES } from '../src/modules/checkpoints/checkpoint-tables.js';
import { quoteIdent } from '../src/db/dialect.js';
import { buildKeys, dropKeys, liveColumns, TRUNCATE_COVERED } from '../src/modules/checkpoints/postgres-checkpoint-store.js';

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function copyStatements(client: pg.ClientBase, dir: string, direction: 'to' | 'from'): Promise<string[]> {
  const statements: string[] = [];
  for (const table of COVERED_TABLES) {
    const columns = (await liveColumns(client, table.name)).names.map(quoteIdent).join(', ');
    const file = literal(`${dir}/${table.name}.bin`);
    const options = direction === 'to' ? '(format binary)' : '(freeze, format binary)';
    statements.push(`copy ${quoteIdent(table.name)} (${columns}) ${direction} ${file} ${options}`);
  }
  return statements;
}

/** Every covered table to a file in `dir`, in one snapshot transaction like a checkpoint's copy. */
export async function copyTablesToFiles(client: pg.ClientBase, dir: string): Promise<void> {
  const statements = await copyStatements(client, dir, 'to');
  await client.query('begin isolation level repeatable read read only');
  for (const statement of statements) await client.query(statement);
  await client.query('commit');
}

/** Every covered table replaced by its file in `dir`, in one transaction like a restore's. */
export async function loadTablesFromFiles(client: pg.ClientBase, dir: string): Promise<void> {
  const statements = await copyStatements(client, dir, 'from');
  await client.query('begin');
  const dropped = await dropKeys(client);
  await client.query(TRUNCATE_COVERED);
  for (const statement of statements) await client.query(statement);
  await buildKeys(client, dropped);
  await client.query('commit');
}
