/**
 * Search load while the catalogue changes, all through the real HTTP API of one real server:
 * autocannon asks `POST /v2` (the labelled dev queries) on 100 connections while a logged-in
 * administrator, concurrently,
 *   - imports and commits a workbook again and again (round k rewrites the same permits, each
 *     with a different number of risks titled with the marker 【v<k>】),
 *   - deletes a permit and restores it from its snapshot, again and again,
 *   - creates checkpoints,
 * and checker clients search for the bench's permits by name and check every answer: a permit
 * shows exactly the risks of one committed round, never a mix or a partial list. At the end the
 * database file must hold exactly what the successful writes say, and the search index too.
 *
 *   npx tsx bench/load/mixed.ts [--catalogue demo|scale] [--connections 100] [--seconds 30]
 *        [--permits 100000] [--risks-per-permit 10]   (scale catalogue size)
 *        [--import-permits 10] [--restore-permits 4] [--checkers 2] [--checkpoint-pause 1]
 *
 * Target: zero errors (every non-2xx answer counts, also of the search load) and zero violations.
 * Exits 1 otherwise, after printing every error and violation.
 */
import { cpus, loadavg } from 'node:os';
import type { RiskSubject } from '../../src/modules/search/search.presenter.js';
import { AdminClient, describeAnswer, ok, type ApiAnswer } from './admin-client.js';
import { checkItems } from './answer-check.js';
import { ACCEPT_GZIP, devQueryRequests, failures, loadLine, runLoad } from './autocannon.js';
import { CATALOGUES, startBenchServer } from './bench-server.js';
import { choiceOption, numberOption } from './cli.js';
import { compareDatabase } from './final-state.js';
import { LoadPlan, type PlannedPermit } from './load-plan.js';

const connections = numberOption('connections', 100);
const seconds = numberOption('seconds', 30);
const catalogue = choiceOption('catalogue', CATALOGUES, 'demo');
const scale = { permits: numberOption('permits', 100_000), risksPerPermit: numberOption('risks-per-permit', 10) };
const checkers = numberOption('checkers', 2);
const checkpointPauseMs = numberOption('checkpoint-pause', 1) * 1000;
const plan = new LoadPlan(numberOption('import-permits', 10), numberOption('restore-permits', 4));

/** The operations of the administrator, in the order the summary lists them. */
const OPERATIONS = ['upload', 'import commit', 'permit delete', 'snapshot list', 'snapshot restore', 'checkpoint create'] as const;
type Operation = (typeof OPERATIONS)[number];

/** Everything the concurrent loops share: what was done, what went wrong, what must hold. */
const run = {
  running: true,
  /** The highest round whose workbook has been uploaded: no answer may show a later one. */
  highestRound: 1,
  /** The last round whose commit answered 200. */
  lastRound: 1,
  present: plan.restorable.map(() => true),
  checkpoints: 0,
  done: new Map<Operation, number>(),
  answersChecked: 0,
  itemsChecked: 0,
  errors: [] as string[],
  violations: [] as string[],
};

/** Counts an operation, or records its failure; answers whether it succeeded. */
function record(op: Operation, answer: ApiAnswer): boolean {
  if (ok(answer)) {
    run.done.set(op, (run.done.get(op) ?? 0) + 1);
    return true;
  }
  run.errors.push(`${op}: ${describeAnswer(answer)}`);
  return false;
}

async function importRound(admin: AdminClient, round: number): Promise<boolean> {
  run.highestRound = Math.max(run.highestRound, round);
  const up = await admin.upload('/admin/permit-import/upload', `负载校验第${round}轮.xlsx`, await plan.workbook(round));
  if (!record('upload', up)) return false;
  if (up.json.data.error_count > 0) {
    run.errors.push(`upload of round ${round}: findings ${JSON.stringify(up.json.data.findings).slice(0, 500)}`);
    return false;
  }
  const commit = await admin.send('POST', '/admin/permit-import/commit', { session_id: up.json.data.session_id, change_summary: `负载校验第${round}轮` });
  if (!record('import commit', commit)) return false;
  run.lastRound = round;
  return true;
}

async function importLoop(admin: AdminClient): Promise<void> {
  for (let round = 2; run.running; round++) await importRound(admin, round);
}

/** Deletes the restorable permits in turn and restores each from the snapshot its deletion made. */
async function deleteRestoreLoop(admin: AdminClient, regionId: string, ids: Map<string, string>): Promise<void> {
  for (let cycle = 0; run.running && run.present.some(Boolean); cycle++) {
    const p = plan.restorable[cycle % plan.restorable.length];
    if (!run.present[p.index]) continue; // a failed restore left it deleted: the final check expects it absent
    const permitId = ids.get(p.name)!;
    const del = await admin.send('DELETE', '/admin/permits', { region_id: regionId, permit_id: permitId, change_summary: '负载校验删除' });
    if (!record('permit delete', del)) continue;
    run.present[p.index] = false;
    const list = await admin.get(`/admin/permit-risk-snapshots?region_id=${regionId}&permit_id=${permitId}&limit=5`);
    if (!record('snapshot list', list)) continue;
    const batch = (list.json.data.snapshots as { batch_id: string; reason: string }[]).find((s) => s.reason === 'delete');
    if (batch?.batch_id !== del.json.data.snapshot_batch_id) {
      run.violations.push(`${p.name}: newest delete snapshot listed is ${batch?.batch_id}, the deletion made ${del.json.data.snapshot_batch_id}`);
    }
    const restore = await admin.send('POST', `/admin/permit-risk-snapshots/${batch?.batch_id ?? del.json.data.snapshot_batch_id}/restore`, {
      change_summary: '负载校验恢复',
    });
    if (!record('snapshot restore', restore)) continue;
    run.present[p.index] = true;
    if (restore.json.data.risk_count !== plan.restorableTitles(p).length) {
      run.violations.push(`${p.name}: restore put back ${restore.json.data.risk_count} risks, the snapshot has ${plan.restorableTitles(p).length}`);
    }
  }
}

async function checkpointLoop(admin: AdminClient): Promise<void> {
  for (let n = 1; run.running; n++) {
    if (record('checkpoint create', await admin.send('POST', '/admin/checkpoints', { description: `负载校验检查点 ${n}` }))) {
      run.checkpoints++;
    }
    await new Promise((r) => setTimeout(r, checkpointPauseMs));
  }
}

interface CheckQuery {
  body: { query: string; region?: string };
  /** A permit that is never deleted, asked for by its exact name: it must be in the answer. */
  mustFind: PlannedPermit | null;
}

function checkQueries(): CheckQuery[] {
  const region = plan.region.name;
  return [
    { body: { query: '负载校验许可' }, mustFind: null },
    { body: { query: '负载恢复许可', region }, mustFind: null },
    ...plan.versioned.flatMap((p) => [
      { body: { query: p.name }, mustFind: p },
      { body: { query: p.name, region }, mustFind: p },
    ]),
    ...plan.restorable.map((p) => ({ body: { query: p.name, region }, mustFind: null })),
  ];
}

/**
 * Asks one check query and checks its answer against what has been committed by the time it
 * arrives; answers its items (null when the request failed).
 */
async function askAndCheck(api: string, q: CheckQuery, highestRound = () => run.highestRound): Promise<RiskSubject[] | null> {
  let status = 0;
  let text: string;
  try {
    const res = await fetch(`${api}/v2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(q.body) });
    status = res.status;
    text = await res.text();
  } catch (err) {
    text = err instanceof Error ? err.message : String(err);
  }
  if (status !== 200) {
    run.errors.push(`check search ${JSON.stringify(q.body)}: ${status || 'no answer'} ${text.slice(0, 300)}`);
    return null;
  }
  const items = (JSON.parse(text) as { data: { risk_subject: RiskSubject[] } }).data.risk_subject;
  run.answersChecked++;
  run.itemsChecked += items.filter((i) => i.region.name === plan.region.name).length;
  for (const v of checkItems(plan, items, { highestRound: highestRound(), mustFind: q.mustFind })) {
    run.violations.push(`${v}  (query ${JSON.stringify(q.body)})`);
  }
  return items;
}

async function checkerLoop(api: string, worker: number): Promise<void> {
  const queries = checkQueries();
  for (let i = worker; run.running; i++) await askAndCheck(api, queries[i % queries.length]);
}

/**
 * After the writes: every versioned permit shows exactly the last committed round, and the
 * restorable ones are found (or not) as their last delete or restore left them.
 */
async function finalSearches(api: string): Promise<void> {
  const last = () => run.lastRound;
  for (const p of plan.versioned) {
    const before = run.violations.length;
    await askAndCheck(api, { body: { query: p.name, region: plan.region.name }, mustFind: p }, last);
    if (run.violations.length > before) run.violations.push(`${p.name}: the final search does not show round ${run.lastRound}`);
  }
  for (const p of plan.restorable) {
    const items = await askAndCheck(api, { body: { query: p.name, region: plan.region.name }, mustFind: run.present[p.index] ? p : null });
    if (!run.present[p.index] && items?.some((i) => i.permit.name === p.name)) {
      run.violations.push(`${p.name}: deleted, yet the final search still finds it`);
    }
  }
}

async function setUp(admin: AdminClient): Promise<{ regionId: string; ids: Map<string, string>; checkpointsBefore: number }> {
  const region = await admin.send('POST', '/admin/regions', plan.region);
  if (!ok(region)) throw new Error(`creating the bench region failed: ${describeAnswer(region)}`);
  const regionId = String(region.json.data.region.id);
  if (!(await importRound(admin, 1))) throw new Error(`the first import failed: ${run.errors.join('; ')}`);
  const permits = await admin.get(`/admin/permits?region=${regionId}`);
  if (!ok(permits)) throw new Error(`listing the bench permits failed: ${describeAnswer(permits)}`);
  const ids = new Map((permits.json.data.permits as { id: string; name: string }[]).map((p) => [p.name, p.id]));
  const checkpoints = await admin.get('/admin/checkpoints');
  if (!ok(checkpoints)) throw new Error(`listing checkpoints failed: ${describeAnswer(checkpoints)}`);
  return { regionId, ids, checkpointsBefore: checkpoints.json.data.checkpoints.length };
}

function printList(title: string, lines: string[], most = 30): void {
  console.log(`${title}: ${lines.length}`);
  for (const line of lines.slice(0, most)) console.log(`  ${line}`);
  if (lines.length > most) console.log(`  … and ${lines.length - most} more`);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(`${catalogue} catalogue; ${connections} connections for ${seconds} s; ${cpus().length} CPUs, load average ${load()}`);
const server = await startBenchServer(catalogue, scale);
try {
  console.log(`server healthy ${server.startupSeconds.toFixed(1)} s after spawn`);
  const admin = new AdminClient(server.base, server.api);
  await admin.login('admin', server.adminPassword);
  const { regionId, ids, checkpointsBefore } = await setUp(admin);
  console.log(`${plan.versioned.length} permits re-imported per round, ${plan.restorable.length} deleted and restored, ` + `${checkers} checking clients`);

  const requests = devQueryRequests(ACCEPT_GZIP);
  const searchLoad = runLoad({ url: `${server.api}/v2`, connections, duration: seconds, requests }).finally(() => {
    run.running = false;
  });
  await Promise.all([
    searchLoad,
    importLoop(admin),
    deleteRestoreLoop(admin, regionId, ids),
    checkpointLoop(admin),
    ...Array.from({ length: checkers }, (_, w) => checkerLoop(server.api, w)),
  ]);
  const search = await searchLoad;
  await finalSearches(server.api);
  await server.stop();
  const diffs = compareDatabase(server.dbPath, plan, { lastRound: run.lastRound, present: run.present, checkpoints: checkpointsBefore + run.checkpoints });
  run.violations.push(...diffs.map((d) => `final database: ${d}`));

  console.log('\noperations that succeeded:');
  for (const op of OPERATIONS) console.log(`  ${op.padEnd(18)} ${run.done.get(op) ?? 0}`);
  console.log(`  (uploads and commits include round 1, committed before the load; the last round committed is ${run.lastRound})`);
  console.log(`searches checked: ${run.answersChecked} answers, ${run.itemsChecked} items of the bench's permits in them`);
  console.log(loadLine('/v2 under writes', search) + `  (${requests.length} queries cycled)`);
  const errors = run.errors.length + failures(search);
  printList('errors (non-2xx answers, failed requests)', run.errors);
  if (failures(search) > 0) console.log(`  search load: ${search.errors} errors, ${search.timeouts} timeouts, ${search.non2xx} non-2xx`);
  printList('violations', run.violations);
  console.log(`load average at the end: ${load()}`);
  console.log(errors === 0 && run.violations.length === 0 ? 'OK: zero errors, zero violations' : 'FAILED');
  if (errors > 0 || run.violations.length > 0) process.exitCode = 1;
} finally {
  await server.dispose();
}
