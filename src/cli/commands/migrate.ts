import type { CommandCall } from '../commands.js';
import { describeTarget, EXIT } from '../errors.js';
import { migrateToLatest } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';
import { logged } from '../operator.js';
import { withSession } from '../session.js';

export async function run({ io }: CommandCall): Promise<number> {
  return withSession(io, { migrating: true }, async (s) => {
    const applied = await migrateToLatest(s.ctx.dbh);
    const where = describeTarget(s.config.database);
    if (applied.length === 0) {
      io.stdout.write(`${where}: the schema is up to date (${Object.keys(migrations).length} migrations)\n`);
      return EXIT.ok;
    }
    // Logged once it has run: before, the operation log table may not exist yet.
    await logged(
      s.ctx,
      s.operator,
      { type: 'migrate', targetType: 'database', summary: `数据库结构升级：${applied.join('、')}`, params: { command: 'migrate' } },
      async () => {},
    );
    io.stdout.write(`${where}: applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}\n`);
    return EXIT.ok;
  });
}
