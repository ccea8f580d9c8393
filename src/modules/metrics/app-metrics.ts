import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The long operations whose durations are recorded (a fixed set: label values stay bounded). */
export type TimedOperation = 'import_parse' | 'import_commit' | 'checkpoint_create' | 'checkpoint_restore';

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Searches answer in well under a millisecond to a few milliseconds. */
const SEARCH_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];
/** Imports and checkpoints take from a fraction of a second to minutes. */
const OPERATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

let processRegistry: Registry | null = null;

/**
 * Process metrics (CPU, memory, event loop, GC) are one per process, whatever number of apps
 * it builds (the tests build many): collected once into a registry of their own.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The metrics of one application instance, in its own registry. Counters and histograms are
 * recorded as things happen; state (index size, pools) is read by gauges when scraped.
 */
export class AppMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'lawrisk_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status class',
    labelNames: ['route', 'method', 'status_class'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'lawrisk_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status class',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  readonly searchDuration = new Histogram({
    name: 'lawrisk_search_duration_seconds',
    help: 'Time the search engine took for one /v2 query (cache: hit when the answer was reused)',
    labelNames: ['cache'] as const,
    buckets: SEARCH_BUCKETS,
    registers: [this.registry],
  });

  readonly queryLogDropped = new Counter({
    name: 'lawrisk_query_log_dropped_total',
    help: 'Query log entries not written (the database refused them, or too many were waiting)',
    registers: [this.registry],
  });

  readonly operationDuration = new Histogram({
    name: 'lawrisk_operation_duration_seconds',
    help: 'Duration of imports (parse, commit) and checkpoint operations (create, restore), by outcome',
    labelNames: ['operation', 'outcome'] as const,
    buckets: OPERATION_BUCKETS,
    registers: [this.registry],
  });

  /** Runs one long operation and records how long it took, whether it succeeded or failed. */
  async time<T>(operation: TimedOperation, fn: () => Promise<T>): Promise<T> {
    const end = this.operationDuration.startTimer({ operation });
    try {
      const result = await fn();
      end({ outcome: 'success' });
      return result;
    } catch (err) {
      end({ outcome: 'failure' });
      throw err;
    }
  }

  /** A gauge whose values are read when scraped; `read` sets them (several label sets allowed). */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: (set: (value: number, labels?: Partial<Record<L, string>>) => void) => void | Promise<void>,
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        await read((value, labels) => (labels ? this.set(labels, value) : this.set(value)));
      },
    });
  }

  /** The Prometheus text exposition: this instance's metrics, then the process's. */
  async exposition(): Promise<string> {
    return `${await this.registry.metrics()}\n${await processMetrics().metrics()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
