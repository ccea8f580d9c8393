/**
 * Relevance through the HTTP API, the way clients see it:
 *   npm run eval:relevance [-- queries.jsonl] [--details]
 * Starts the real server on a temporary database, which imports the corpus workbooks through the
 * upload → preview → commit path (the demo data), asks every labelled query at POST /v2 and prints
 * MRR@10, Recall@5, nDCG@10, the zero-result rate and the no-match rate of the queries without an
 * answer, overall and per type — for the dev set's tuning and checking halves, the own tuning set
 * and the frozen checking set, or for the one file given (--details: the imperfect queries of the
 * sets tuned on).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadQueries } from '../bench/search/corpus.js';
import { evalSetQueries, evalSetsReport } from '../bench/search/eval-sets.js';
import { report } from '../bench/search/relevance-run.js';
import type { LabelledQuery, QueryOutcome } from '../src/modules/search/engine/relevance-metrics.js';
import { startServer } from '../test/helpers/server-process.js';

const API = '/app/api/workflow/lawrisk';
const args = process.argv.slice(2);
const details = args.includes('--details');
const queriesPath = args.find((a) => !a.startsWith('--'));

interface Subject {
  region: { id: string };
  permit: { code: string | null };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lawrisk-eval-'));
  const t0 = performance.now();
  const server = await startServer({
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${join(dir, 'eval.db')}`,
    DEMO_DATA: '1',
    ADMIN_PASSWORD: 'Eval-Admin-Pass-1',
    SEARCH_RATE_LIMIT: '0',
  });
  try {
    const regions = (await (await fetch(`${server.base}${API}/v2/regions`)).json()) as { data: { regions: { id: string; code: string | null }[] } };
    const codeOf = new Map(regions.data.regions.map((r) => [r.id, r.code ?? r.id]));
    console.log(`server ready with the demo catalogue in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const latencies: number[] = [];
    const ask = async (queries: LabelledQuery[]): Promise<QueryOutcome[]> => {
      const outcomes: QueryOutcome[] = [];
      for (const q of queries) {
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
      return outcomes;
    };
    if (queriesPath) console.log(report(await ask(loadQueries(queriesPath)), { details, title: queriesPath }));
    else {
      const sets = [];
      for (const s of evalSetQueries()) sets.push({ ...s, outcomes: await ask(s.outcomes) });
      console.log(evalSetsReport(sets, details));
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `HTTP latency over ${latencies.length} queries: p50 ${latencies[Math.floor(latencies.length / 2)].toFixed(2)} ms, max ${latencies.at(-1)!.toFixed(2)} ms`,
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
