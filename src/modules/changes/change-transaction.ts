import { dataChanged, type AppContext, type DataChange } from '../../context.js';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { catalogueTransaction } from '../../db/catalogue-lock.js';
import { recordChange } from './change-feed.js';

/**
 * A write that changes searchable data. `work` runs in one transaction; the change `changeOf`
 * names for its result (null: nothing searchable changed) is written to the change feed in that
 * same transaction, so it commits or vanishes with the data; once committed, this instance's own
 * search index follows. A crash at any point leaves every instance able to catch up.
 * `catalogueLock`: a change that reads permits and writes what it computed from them (an import
 * commit, a deletion, a snapshot restore) runs in a catalogue transaction (catalogue-lock.ts).
 */
export async function writeChange<T>(
  ctx: AppContext,
  work: (trx: Transaction<Database>) => Promise<T>,
  changeOf: (result: T) => DataChange | null,
  opts: { catalogueLock?: boolean } = {},
): Promise<T> {
  const run = async (trx: Transaction<Database>) => {
    const result = await work(trx);
    const change = changeOf(result);
    if (change) await recordChange(ctx, trx, change);
    return { result, change };
  };
  const { result, change } = await (opts.catalogueLock ? catalogueTransaction(ctx.db, run) : ctx.db.transaction().execute(run));
  if (change) await dataChanged(ctx, change);
  return result;
}

export const EVERYTHING: DataChange = { kind: 'all' };
