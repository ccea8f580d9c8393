/**
 * A bounded set of running tasks: `add` waits once `limit` are running, so reading the next page
 * overlaps with compressing and storing the previous ones without holding the whole table in memory.
 */
export class InFlight {
  private readonly tasks: Promise<void>[] = [];

  constructor(private readonly limit: number) {}

  async add(task: Promise<void>): Promise<void> {
    task.catch(() => {}); // observed by drain(); never an unhandled rejection meanwhile
    this.tasks.push(task);
    if (this.tasks.length >= this.limit) await this.tasks.shift();
  }

  /** Waits for every task; the first failure is thrown after all have finished. */
  async drain(): Promise<void> {
    const results = await Promise.allSettled(this.tasks.splice(0));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Waits for every task and ignores their outcome: used before a rollback, so no task touches
   * the connection after its transaction has ended.
   */
  async settle(): Promise<void> {
    await Promise.allSettled(this.tasks.splice(0));
  }
}

/**
 * Items 0..count-1 read in order, with up to `depth` of them loading ahead of the one taken, so
 * reading and decompressing the next chunks overlaps with inserting the current one.
 */
export class ReadAhead<T> {
  private readonly ahead: Promise<T>[] = [];
  private next = 0;

  constructor(
    private readonly count: number,
    private readonly depth: number,
    private readonly load: (index: number) => Promise<T>,
  ) {
    this.fill();
  }

  private fill(): void {
    while (this.ahead.length < this.depth && this.next < this.count) {
      const loading = this.load(this.next++);
      loading.catch(() => {}); // observed by take() or settle()
      this.ahead.push(loading);
    }
  }

  /** The next item, in order; loading goes on behind it. */
  take(): Promise<T> {
    const item = this.ahead.shift();
    if (!item) throw new Error('read past the last item');
    this.fill();
    return item;
  }

  /** Waits for every load started: used before a rollback, so none touches the connection after it. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.ahead.splice(0));
  }
}
