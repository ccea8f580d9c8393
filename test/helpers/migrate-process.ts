/**
 * A process that opens the database of DATABASE_URL, says `ready`, and migrates it when a line
 * arrives on its standard input: several of them, told together, migrate at the same instant
 * whatever their start-up took. Prints what it ran as JSON.
 */
import { once } from 'node:events';
import { parseDatabaseUrl } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

const dbh = connect(parseDatabaseUrl('DATABASE_URL', process.env.DATABASE_URL ?? ''));
process.stdout.write('ready\n');
await once(process.stdin, 'data');
try {
  process.stdout.write(`${JSON.stringify({ ran: await migrateToLatest(dbh) })}\n`);
} finally {
  await dbh.close();
  process.stdin.destroy();
}
