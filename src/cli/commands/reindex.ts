import { checkIndexBuild } from '../../modules/search/index-build-check.js';
import type { CommandCall } from '../commands.js';
import { EXIT } from '../errors.js';
import { plural } from '../format.js';
import { logged } from '../operator.js';
import { withSession } from '../session.js';

/**
 * What an operator means by "reindex": every running instance rebuilds its in-memory index from
 * the database. The index is built here first as the instances build it, so a catalogue that
 * cannot be indexed fails this command instead of every instance's next rebuild; then one
 * catalogue-wide change in the shared feed makes each instance rebuild (within a second).
 */
export async function run({ io }: CommandCall): Promise<number> {
  return withSession(io, {}, async (s) => {
    const check = await logged(
      s.ctx,
      s.operator,
      { type: 'reindex', targetType: 'search_index', summary: '重建检索索引', params: { command: 'reindex' } },
      async (note) => {
        const c = await checkIndexBuild(s.ctx.db);
        await s.announce({ kind: 'all' });
        note.summary = `重建检索索引：${c.permits} 个许可事项，${c.regions} 个区域`;
        return c;
      },
    );
    io.stdout.write(
      `search index built from the database: ${plural(check.permits, 'permit')} in ${plural(check.regions, 'region')} ` +
        `(read in ${check.loadMs} ms, built in ${check.buildMs} ms)\n` +
        'every running instance was asked to rebuild its index; each does so within about a second\n',
    );
    return EXIT.ok;
  });
}
