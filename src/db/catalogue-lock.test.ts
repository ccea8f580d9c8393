import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openMigrated, testDialects, type TestDatabase } from '../../test/helpers/databases.js';
import { createRegion } from '../../test/helpers/fixtures.js';
import { AppError } from '../http/errors.js';
import { CATALOGUE_BUSY, catalogueTransaction } from './catalogue-lock.js';
import type { DatabaseHandle, DialectKind } from './connect.js';

/** Two connections (two instances) on one new database of `dialect`. */
function twoConnections(dialect: DialectKind) {
  const c = {} as { database: TestDatabase; first: DatabaseHandle; second: DatabaseHandle };
  beforeAll(async () => {
    c.database = await createTestDatabase(dialect);
    c.first = await openMigrated(c.database);
    c.second = c.database.open();
  });
  afterAll(async () => {
    await c.second?.close();
    await c.first?.close();
    await c.database?.drop();
  });
  return c;
}

/** Starts a catalogue change on `db` that writes a region, then holds the lock until released. */
function holdLock(db: DatabaseHandle, name: string) {
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  let holding = () => {};
  const held = new Promise<void>((r) => (holding = r));
  const done = catalogueTransaction(db.db, async (trx) => {
    await createRegion(trx, name);
    holding();
    await released;
  });
  return { held, release, done };
}

describe.each(testDialects().filter((d) => d === 'postgres'))('the catalogue lock on %s', (dialect) => {
  const c = twoConnections(dialect);

  it('makes a second change wait, then read what the first one wrote', async () => {
    const lock = holdLock(c.first, '先到区');
    await lock.held;
    let started = false;
    const waiting = catalogueTransaction(c.second.db, async (trx) => {
      started = true;
      return (await trx.selectFrom('regions').select('name').where('name', '=', '先到区').execute()).length;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(started).toBe(false);
    lock.release();
    await lock.done;
    expect(await waiting).toBe(1);
  });
});

describe('the catalogue lock on sqlite', () => {
  const c = twoConnections('sqlite');

  // Waiting is tested with two processes (test/instances/server-processes.test.ts): one process
  // cannot wait for its own other connection, whose holder stands still for the whole busy
  // timeout (5 s), after which the second change is refused.
  it('refuses a change that cannot have the lock within the busy timeout with 409, running none of it', async () => {
    const lock = holdLock(c.first, '占用区');
    await lock.held;
    let ran = false;
    const refused = await catalogueTransaction(c.second.db, async () => {
      ran = true;
    }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 409, message: CATALOGUE_BUSY });
    expect(ran).toBe(false);
    lock.release();
    await lock.done;
    expect((await c.second.db.selectFrom('regions').select('name').execute()).map((r) => r.name)).toContain('占用区');
  });
});
