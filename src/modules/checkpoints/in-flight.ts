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
