import {
  BATCH_SIZE,
  createCheckpoint,
  describeCheckpointCreated,
  describeRestore,
  listCheckpoints,
  restoreCheckpoint,
} from '../../modules/checkpoints/checkpoints.service.js';
import { intOption, stringOption } from '../args.js';
import type { CommandCall } from '../commands.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { byteSize, plural } from '../format.js';
import { logged, CLI_USERNAME } from '../operator.js';
import { confirm, interactive } from '../prompt.js';
import { withSession, type CliSession } from '../session.js';
import { renderTable } from '../table.js';

const DESCRIPTION_MAX = 500;

async function create(s: CliSession, call: CommandCall, description: string): Promise<number> {
  const checkpoint = await logged(
    s.ctx,
    s.operator,
    { type: 'checkpoint', targetType: 'checkpoint', summary: '创建检查点', params: { command: 'checkpoint create', description } },
    async (note) => {
      note.targetName = description || null;
      const c = await createCheckpoint(s.ctx, description, CLI_USERNAME);
      note.targetId = c.checkpoint_id;
      note.summary = describeCheckpointCreated(c);
      return c;
    },
  );
  call.io.stdout.write(
    `created checkpoint ${checkpoint.checkpoint_id}: ${plural(checkpoint.total_rows, 'row')} of ${plural(checkpoint.tables, 'table')}, ${byteSize(checkpoint.size_bytes)}\n`,
  );
  return EXIT.ok;
}

async function list(s: CliSession, call: CommandCall): Promise<number> {
  const checkpoints = await listCheckpoints(s.ctx);
  if (checkpoints.length === 0) {
    call.io.stdout.write('no checkpoints\n');
    return EXIT.ok;
  }
  call.io.stdout.write(
    renderTable(
      ['id', 'created at', 'kind', 'by', 'rows', 'size', 'description'],
      checkpoints.map((c) => [c.checkpoint_id, c.created_at, c.kind, c.created_by, String(c.total_rows), byteSize(c.size_bytes), c.description]),
      { right: [0, 4, 5] },
    ),
  );
  return EXIT.ok;
}

interface RestoreOptions {
  id: string;
  autoBackup: boolean;
  batchSize: number;
}

async function restore(s: CliSession, call: CommandCall, { id, autoBackup, batchSize }: RestoreOptions): Promise<number> {
  const { io, values } = call;
  if (values.yes !== true) {
    const backup = autoBackup ? ' (a backup checkpoint is saved first)' : ' (no backup is saved)';
    if (!(await confirm(io, `Replace all data with checkpoint ${id}${backup}? [y/N] `))) throw new CliError('not restored');
  }
  const result = await logged(
    s.ctx,
    s.operator,
    {
      type: 'restore',
      targetType: 'checkpoint',
      summary: '恢复检查点',
      params: { command: 'checkpoint restore', checkpoint_id: id, create_auto_backup: autoBackup, batch_size: batchSize },
    },
    async (note) => {
      note.targetId = id;
      const r = await restoreCheckpoint(s.ctx, id, { autoBackup, batchSize, operator: CLI_USERNAME });
      note.summary = describeRestore(r, batchSize);
      return r;
    },
  );
  const backup = result.auto_backup ? `; the data before it is in checkpoint ${result.auto_backup}` : '';
  io.stdout.write(`restored checkpoint ${result.checkpoint_id}: ${plural(result.total_rows, 'row')} in ${plural(result.tables_restored, 'table')}${backup}\n`);
  return EXIT.ok;
}

/** Which action each option belongs to: an option given to another action is a mistake worth saying. */
const OPTION_ACTION: Record<string, string> = { description: 'create', 'no-auto-backup': 'restore', 'batch-size': 'restore', yes: 'restore' };

export async function run(call: CommandCall): Promise<number> {
  const [action, id] = call.positionals;
  if (!['create', 'list', 'restore'].includes(action)) {
    throw new UsageError(`unknown action "${action}": create, list or restore (see lawrisk checkpoint --help)`);
  }
  if (action === 'restore' && id === undefined) throw new UsageError('missing argument: checkpoint restore <id>');
  if (action !== 'restore' && id !== undefined) throw new UsageError(`unexpected argument "${id}"`);
  for (const [option, owner] of Object.entries(OPTION_ACTION)) {
    if (call.values[option] !== undefined && action !== owner) throw new UsageError(`--${option} only applies to checkpoint ${owner}`);
  }
  // Every argument is checked before the database is opened.
  const description = stringOption(call.values, 'description')?.trim() ?? '';
  if (description.length > DESCRIPTION_MAX) throw new UsageError(`--description is longer than ${DESCRIPTION_MAX} characters`);
  const options: RestoreOptions = {
    id,
    autoBackup: call.values['no-auto-backup'] !== true,
    batchSize: intOption(call.values, 'batch-size', BATCH_SIZE.min, BATCH_SIZE.max) ?? BATCH_SIZE.def,
  };
  if (action === 'restore' && call.values.yes !== true && !interactive(call.io)) {
    throw new UsageError('restoring replaces all data: add --yes to confirm');
  }
  return withSession(call.io, {}, (s) => (action === 'create' ? create(s, call, description) : action === 'list' ? list(s, call) : restore(s, call, options)));
}
