/**
 * A small seeded generator (mulberry32): the same seed gives the same cases on every machine, so a
 * failure printed with its seed can be replayed exactly (HOSTILE_SEED=<seed>).
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A generator for one named stream of cases: adding a route does not change another route's cases. */
  static derive(seed: number, name: string): Random {
    let h = seed >>> 0;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x9e3779b1) >>> 0;
    return new Random(h ^ (h >>> 16));
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Up to `max` distinct items, at least one. */
  some<T>(items: readonly T[], max: number): T[] {
    const pool = [...items];
    const n = 1 + this.int(Math.min(max, pool.length));
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(pool.splice(this.int(pool.length), 1)[0]);
    return out;
  }
}

/** The seed of this run: HOSTILE_SEED when given, else a fixed one (the suite is deterministic by default). */
export function hostileSeed(): number {
  const given = process.env.HOSTILE_SEED;
  if (given && /^\d+$/.test(given)) return Number(given) >>> 0;
  return 20_261_122;
}
