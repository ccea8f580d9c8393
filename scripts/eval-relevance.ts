/**
 * Relevance through the HTTP API, the way clients see it:
 *   npm run eval:relevance [-- queries.jsonl] [--details]
 * Starts the real server on a temporary database, which imports the corpus workbooks through the
 * upload → preview → commit path (the demo data), asks every labelled query at POST /v2 and prints
 * MRR@10, Recall@5, nDCG@10, the zero-result rate and the negative no_match rate, overall and per type.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadQueries, DEV_QUERIES_PATH } from '../bench/search/corpus.js';
import { report } from '../bench/search/relevance-run.js';
import type { QueryOutcome } from '../src/modules/search/engine/relevance-metrics.js';
import { startServer } from '../test/helpers/server-process.js';

const API = '/app/api/workflow/lawrisk';
const args = process.argv.slice(2);
const details = args.includes('--details');
const queriesPath = args.find((a) => !a.startsWith('--')) ?? DEV_QUERIES_PATH;

interface Subject {
  region: { id: string };
  permit: { code: string | null };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lawrisk-eval-'));
  const t0 = performance.now();
  const server = await startServer({
    DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'eval.db')}`, DEMO_DATA: '1', ADMIN_PASSWORD: 'Eval-Admin-Pass-1', SEARCH_RATE_LIMIT: '0',
  });
  try {
    const regions = (await (await fetch(`${server.base}${API}/v2/regions`)).json()) as { data: { regions: { id: string; code: string | null }[] } };
    const codeOf = new Map(regions.data.regions.map((r) => [r.id, r.code ?? r.id]));
    console.log(`server ready with the demo catalogue in ${((performance.now() - t0) / 1000).toFixed(1)} s; queries: ${queriesPath}`);

    const outcomes: QueryOutcome[] = [];
    const latencies: number[] = [];
    for (const q of loadQueries(queriesPath)) {
      const started = performance.now();
      const res = await fetch(`${server.base}${API}/v2`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(q.region === null ? { query: q.query } : { query: q.query, region: q.region }),
      });
      latencies.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`query ${q.id} answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as { data: { risk_subject: Subject[] } };
      outcomes.push({ query: q, ranked: body.data.risk_subject.map((s) => `${codeOf.get(s.region.id)}:${s.permit.code}`) });
    }
    latencies.sort((a, b) => a - b);
    console.log(report(outcomes, { split: queriesPath === DEV_QUERIES_PATH, details, title: queriesPath }));
    console.log(`HTTP latency over ${latencies.length} queries: p50 ${latencies[Math.floor(latencies.length / 2)].toFixed(2)} ms, max ${latencies.at(-1)!.toFixed(2)} ms`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
