import { Worker } from 'node:worker_threads';
import { OUT_OF_MEMORY_MESSAGE, WorkbookRejected } from './parser/errors.js';
import type { ParseLimits, ParsedWorkbook } from './parser/types.js';
import type { ParseJob, ParseOutcome } from './parse-worker.js';

const ENTRY = new URL('./parse-worker-entry.mjs', import.meta.url);

/** How long a thread that finished a parse is kept for the next one: a clerk's upload, fix and upload again. */
const KEEP_IDLE_MS = 60_000;
/**
 * A thread whose heap is larger than this after its parse is ended at once rather than kept, so a
 * kept thread costs little: one that parsed a real workbook stays well below it, one that parsed a
 * large workbook keeps that workbook's garbage until V8 collects it.
 */
const KEEP_HEAP_BYTES = 96 * 1024 * 1024;

/** One worker thread with a capped heap, running one parse at a time. */
class ParseThread {
  readonly worker: Worker;
  private failure: (Error & { code?: string }) | null = null;
  private pending: { resolve: (outcome: ParseOutcome) => void; reject: (err: Error) => void } | null = null;

  constructor(memoryMb: number, onExit: (thread: ParseThread) => void) {
    this.worker = new Worker(ENTRY, {
      // Nothing of the process's own flags (a loader, --expose-gc …): the entry sets up what it needs.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    });
    this.worker.on('message', (outcome: ParseOutcome) => this.settle()?.resolve(outcome));
    // Kept for the exit that follows; a listener at all times, so a thread's error never reaches the process.
    this.worker.on('error', (err) => (this.failure = err));
    this.worker.on('exit', (code) => {
      const failure = this.failure;
      this.settle()?.reject(
        failure?.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new WorkbookRejected(OUT_OF_MEMORY_MESSAGE, 'out_of_memory')
          : (failure ?? new Error(`the parse worker ended (exit code ${code}) during a parse`)),
      );
      onExit(this);
    });
  }

  private settle() {
    const pending = this.pending;
    this.pending = null;
    return pending;
  }

  run(content: Buffer, limits: ParseLimits): Promise<ParseOutcome> {
    // The thread gets a copy it owns (moved, not copied again); the caller keeps the upload to store it.
    const copy = new Uint8Array(content);
    const job: ParseJob = { content: copy, limits };
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.ref();
      this.worker.postMessage(job, [copy.buffer]);
    });
  }
}

/**
 * Runs parseWorkbook in worker threads whose heap is capped at `memoryMb`: a workbook that passes
 * every count and still needs more ends its thread, which becomes a refusal of the workbook,
 * while the service keeps answering. A thread parses one workbook at a time (ParseSlots bounds
 * how many run); a finished one whose heap stayed small is kept idle for a while, so the next
 * parse does not pay for starting a thread and loading exceljs again, then ended, giving its
 * memory back. An idle thread never keeps the process alive.
 */
export class ParseWorkers {
  private readonly idle = new Map<ParseThread, NodeJS.Timeout>();

  constructor(
    private readonly memoryMb: number,
    private readonly keepIdleMs = KEEP_IDLE_MS,
    private readonly keepHeapBytes = KEEP_HEAP_BYTES,
  ) {}

  async parse(content: Buffer, limits: ParseLimits): Promise<ParsedWorkbook> {
    const thread = this.takeIdle() ?? new ParseThread(this.memoryMb, (t) => this.forget(t));
    // A thread that ends during the parse rejects it and is gone; one that answers is kept, or ended if it grew large.
    const outcome = await thread.run(content, limits);
    if (outcome.heapBytes <= this.keepHeapBytes) this.keep(thread);
    else void thread.worker.terminate();
    if ('parsed' in outcome) return outcome.parsed;
    throw new WorkbookRejected(outcome.rejected.message, outcome.rejected.reason);
  }

  /** Threads kept for the next parse. */
  get idleThreads(): number {
    return this.idle.size;
  }

  /** Ends the idle threads (the application's close). */
  async close(): Promise<void> {
    const threads = [...this.idle.keys()];
    for (const t of threads) this.forget(t);
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private takeIdle(): ParseThread | undefined {
    const [thread] = this.idle.keys();
    if (thread) this.forget(thread);
    return thread;
  }

  private keep(thread: ParseThread): void {
    thread.worker.unref();
    const timer = setTimeout(() => {
      this.forget(thread);
      void thread.worker.terminate();
    }, this.keepIdleMs).unref();
    this.idle.set(thread, timer);
  }

  private forget(thread: ParseThread): void {
    clearTimeout(this.idle.get(thread));
    this.idle.delete(thread);
  }
}
