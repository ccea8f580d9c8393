// Compiles the server (src/ → dist/) with TypeScript, so that `npm start` and the `lawrisk` command
// run plain JavaScript. dist/ mirrors src/ at the same depth: paths the code resolves from its own
// place (../web/dist, ../../package.json, demo/, assets/) reach the same files from either, and
// the data files kept next to the code (the search knowledge, the common passwords) are copied.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');
export const DIST = join(ROOT, 'dist');
/** Written last, with the time the build started: anything under src/ changed since is newer. */
const STAMP = '.built';
/** Besides src/, what the output depends on. */
const INPUTS = [join(ROOT, 'tsconfig.json'), fileURLToPath(import.meta.url)];

/** Test code kept next to what it tests (`x.test.ts`, `x.test-helpers.ts`, `test-zip.ts`, `x.fixture.ts`) is not built. */
export const isTestCode = (path) => /(^|[.-])(test|fixture)([.-]|$)/.test(basename(path));
/** Compiled by TypeScript; every other file under src/ is data, copied as it is. `.mjs` (a worker thread's entry) is compiled too. */
const isCode = (path) => /\.(ts|mts|mjs)$/.test(path) && !path.endsWith('.d.ts');

function walk(dir, onDir = () => {}) {
  onDir(dir);
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path, onDir) : [path];
  });
}

/** Every file under src/ that the service runs or reads, absolute paths. */
export function shippedSources() {
  return walk(SRC).filter((path) => !isTestCode(path));
}

/** Where a source file lands in dist/. */
export function distPathOf(source, dist = DIST) {
  return join(dist, relative(SRC, source))
    .replace(/\.ts$/, '.js')
    .replace(/\.mts$/, '.mjs');
}

/** dist/ is missing, or a shipped file or a folder under src/ (a file added or removed) is newer than the last build. */
export function serverIsStale() {
  let built;
  try {
    built = statSync(join(DIST, STAMP)).mtimeMs;
  } catch {
    return true;
  }
  let newest = Math.max(...INPUTS.map((path) => statSync(path).mtimeMs));
  const files = walk(SRC, (dir) => (newest = Math.max(newest, statSync(dir).mtimeMs)));
  for (const file of files) if (!isTestCode(file)) newest = Math.max(newest, statSync(file).mtimeMs);
  return newest > built;
}

async function loadTypeScript() {
  try {
    return (await import('typescript')).default;
  } catch {
    return null;
  }
}

/**
 * Builds dist/ in a folder of its own and swaps it in when complete: a failed build leaves the
 * previous dist/ as it was, and instances started together that both rebuild do not write into
 * each other's output. Messages go to stderr: the `lawrisk` command's stdout is its answer.
 * Resolves true when built, false when TypeScript is not installed.
 */
export async function buildServer() {
  const ts = await loadTypeScript();
  if (!ts) {
    console.error(`server not built: TypeScript is not installed (install the dev dependencies to build dist/)`);
    return false;
  }
  const started = Date.now();
  const out = join(ROOT, '.tmp', `dist-${process.pid}-${started}`);
  rmSync(out, { recursive: true, force: true });
  const sources = shippedSources();
  const { options, errors } = ts.convertCompilerOptionsFromJson(
    {
      ...ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config.compilerOptions,
      noEmit: false,
      allowJs: true,
      rootDir: SRC,
      outDir: out,
      noEmitOnError: true,
    },
    ROOT,
  );
  const program = ts.createProgram({ rootNames: sources.filter(isCode), options });
  const diagnostics = [...errors, ...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  if (diagnostics.length > 0) {
    rmSync(out, { recursive: true, force: true });
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
    const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
    throw new Error(`TypeScript reported errors:\n${format(diagnostics, host)}`);
  }
  for (const source of sources.filter((path) => !isCode(path))) {
    const target = distPathOf(source, out);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target);
  }
  writeFileSync(join(out, STAMP), '');
  utimesSync(join(out, STAMP), started / 1000, started / 1000);
  swapIn(out);
  console.error(`server built in ${((Date.now() - started) / 1000).toFixed(1)} s → ${relative(ROOT, DIST)}/`);
  return true;
}

function swapIn(out) {
  const previous = `${out}-previous`;
  try {
    renameSync(DIST, previous);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  try {
    renameSync(out, DIST);
  } catch (err) {
    // Another build of the same sources was swapped in first: keep it.
    if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    rmSync(out, { recursive: true, force: true });
  }
  rmSync(previous, { recursive: true, force: true });
}

/** Builds dist/ when it is stale; fails when it cannot be built and there is none to run. */
export async function ensureServerBuilt() {
  if (!serverIsStale()) return;
  if (!(await buildServer()) && !existsSync(join(DIST, 'server.js'))) {
    throw new Error('dist/ is missing and cannot be built here: run `npm ci` (with the dev dependencies) or copy a built dist/');
  }
}
