import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { exportRegionWorkbook } from '../../modules/export/region-export.service.js';
import { stringOption } from '../args.js';
import type { CommandCall } from '../commands.js';
import { CliError, EXIT } from '../errors.js';
import { plural } from '../format.js';
import { withSession } from '../session.js';

/** A file name from a region name: characters file systems refuse become "_". */
function fileNameFor(regionName: string): string {
  return `${regionName.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim() || 'region'}.xlsx`;
}

/** Reads only: nothing changes, so nothing goes into the operation log. */
export async function run({ io, values, positionals }: CommandCall): Promise<number> {
  const token = positionals[0].trim();
  return withSession(io, {}, async (s) => {
    const exported = await exportRegionWorkbook(s.ctx.db, token);
    if (!exported) throw new CliError(`unknown region "${token}" (give its id, code or name)`);
    const output = resolve(io.cwd, stringOption(values, 'output') ?? fileNameFor(exported.region.name));
    if (existsSync(output) && values.force !== true) throw new CliError(`${output} exists (add --force to replace it)`);
    await writeFile(output, exported.content);
    for (const w of exported.warnings) io.stderr.write(`warning: ${w}\n`);
    io.stdout.write(`exported ${exported.region.name}: ${plural(exported.permits, 'permit')}, ${plural(exported.risks, 'risk')} → ${output}\n`);
    return EXIT.ok;
  });
}
