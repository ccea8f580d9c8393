import { tooMany } from '../../http/errors.js';

export const PARSES_BUSY_MESSAGE = '正在解析的工作簿过多，请稍后重试';

/**
 * At most `max` workbook parses at once on this instance (each takes a worker thread and up to
 * IMPORT_PARSE_MEMORY_MB). A further parse waits up to `waitMs` for a slot, with at most `max`
 * waiting (each holds its upload in memory meanwhile); past that it is refused with 429 and a
 * Retry-After of the wait, before anything is stored.
 */
export class ParseSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly waitMs: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private busy() {
    return tooMany(PARSES_BUSY_MESSAGE, Math.max(1, Math.ceil(this.waitMs / 1000)));
  }

  private acquire(): Promise<void> {
    if (this.running < this.max) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waitMs === 0 || this.waiting.length >= this.max) return Promise.reject(this.busy());
    return new Promise((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(this.busy());
      }, this.waitMs);
      this.waiting.push(take);
    });
  }

  /** A finished parse hands its slot to the first waiting one, if any. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
