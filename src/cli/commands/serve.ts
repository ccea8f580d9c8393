import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stringOption } from '../args.js';
import type { CommandCall, CommandResult } from '../commands.js';
import { CliError } from '../errors.js';
import { cliConfig } from '../session.js';

const BUILD_PAGES = fileURLToPath(new URL('../../../scripts/build-pages.mjs', import.meta.url));

/**
 * `npm start` is `prestart` (rebuild what is stale) then dist/server.js: the same steps, in this
 * process, so signals reach the server directly. The bin has already rebuilt a stale server.
 */
export async function run({ io, values }: CommandCall): Promise<CommandResult> {
  const port = stringOption(values, 'port');
  const host = stringOption(values, 'host');
  if (port !== undefined) io.env.PORT = port;
  if (host !== undefined) io.env.HOST = host;
  cliConfig(io); // a bad setting stops here, before anything runs
  const built = spawnSync(process.execPath, [BUILD_PAGES, '--if-stale'], { stdio: 'inherit', env: io.env });
  if (built.status !== 0) throw new CliError('the web pages could not be built (see above)');
  // server.ts reads the settings from process.env: the command line's environment.
  Object.assign(process.env, io.env);
  await import('../../server.js');
  return 'serving';
}
