import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/databases.js';
import { API, cookieOf } from '../helpers/test-app.js';
import { buildFuzzWorld, FUZZ_ADMIN, type FuzzWorld } from './fuzz-world.js';
import { describeFailure, runFuzzPass, type Identity } from './fuzz-runner.js';
import { hostileSeed } from './random.js';

/**
 * The hostile-input pass over every registered route (docs/hostile-input.md): as the super
 * administrator and anonymously, each route gets every category of hostile text in every input
 * place, malformed JSON, wrong types and content types, broken multipart and odd headers, plus
 * seeded random mixes. The full pass runs on SQLite; PostgreSQL gets the systematic part as the
 * super administrator (its own failures are the ones a different database would add: encoding,
 * integer ranges, error texts).
 */

/** On PostgreSQL: the text a different database can take differently (encoding, NUL, integer ranges, quoting). */
const DATABASE_CATEGORIES = ['sql-injection', 'control-characters', 'lone-surrogates', 'number-like', 'long-10k'];

const OBJECT_PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const ownNames = () => OBJECT_PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).sort().join(','));

describe.each(testDialects())('hostile input on every route (%s)', (dialect) => {
  let world: FuzzWorld;
  const seed = hostileSeed();
  const prototypesBefore = ownNames();

  beforeAll(async () => {
    world = await buildFuzzWorld(dialect);
  }, 120_000);
  afterAll(async () => world?.t.close());

  function superAdmin(): Identity {
    let cookie: string | null = null;
    return {
      name: 'super-admin',
      cookie: async () => (cookie ??= await world.login()),
      async renew() {
        const me = cookie ? await world.t.app.inject({ url: `${API}/auth/me`, headers: { cookie } }) : null;
        if (me?.statusCode === 200) return false;
        cookie = await world.login();
        return true;
      },
    };
  }
  const anonymous: Identity = { name: 'anonymous', cookie: async () => null, renew: async () => false };

  it('answers every hostile request with a clear 4xx envelope or a documented success, and refused ones change no data', async () => {
    expect(world.routes.length).toBeGreaterThan(40);
    const started = Date.now();
    const full = dialect === 'sqlite';
    const report = await runFuzzPass(world, full ? [superAdmin(), anonymous] : [superAdmin()], seed, (identity, route) => {
      if (!full) return { categories: DATABASE_CATEGORIES, structure: false, random: 0 };
      // An anonymous caller of a guarded route is answered 401 before anything is read: a few requests show it.
      if (identity === 'anonymous' && route.guarded) return { categories: [], structure: false, random: 4 };
      return { structure: true, random: 6 };
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `hostile input (${dialect}, HOSTILE_SEED=${seed}): ${report.requests} requests over ${world.routes.length} routes ` +
        `(${Object.entries(report.byIdentity)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}) in ${seconds} s, ${report.failures.length} failures`,
    );
    if (process.env.HOSTILE_VERBOSE === '1') {
      console.log(report.slowest.map(([ms, what]) => `${ms} ms ${what}`).join('\n'));
      const kinds = Object.entries(report.byKind).sort((a, b) => b[1].ms - a[1].ms);
      console.log(kinds.map(([k, v]) => `${k}: ${v.n} requests, ${Math.round(v.ms)} ms`).join('\n'));
    }
    const shown = report.failures.slice(0, 25).map(describeFailure).join('\n\n');
    expect(report.failures.length, shown).toBe(0);
  }, 600_000);

  it('leaves no prototype polluted and still answers normally afterwards', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(ownNames()).toEqual(prototypesBefore);
    const simple = await world.t.app.inject({ url: `${API}/test-simple` });
    expect(simple.json()).toEqual({ status: 'ok' });
    // The pass may have deleted or restored permits: the search answers what the database now holds.
    const visible = await world.t.dbh.db.selectFrom('permits').select('id').where('name', '=', '食品经营许可').where('visible', '=', 1).execute();
    const search = await world.t.app.inject({ url: `${API}/v2?query=${encodeURIComponent('食品经营许可')}` });
    expect(search.statusCode).toBe(200);
    expect(search.json()).toMatchObject({ success: true, data: { workflowStatus: visible.length > 0 ? 'ok' : 'no_match' } });
    const login = await world.t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: FUZZ_ADMIN });
    expect(login.statusCode).toBe(200);
    const me = await world.t.app.inject({ url: `${API}/auth/me`, headers: { cookie: cookieOf(login) } });
    expect(me.json()).toMatchObject({ success: true, data: { user: { username: 'fuzz-admin' } } });
  });
});
