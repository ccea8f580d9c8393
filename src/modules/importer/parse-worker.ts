import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { WorkbookRejected, type RejectReason } from './parser/errors.js';
import { parseWorkbook } from './parser/parse-workbook.js';
import type { ParseLimits, ParsedWorkbook } from './parser/types.js';

/**
 * A parse worker thread (parse-workers.ts): parses each workbook it is sent, one at a time, and
 * posts the outcome with the size of its heap afterwards. A refusal crosses as its message and
 * reason (a class does not survive the copy); anything else the parser throws ends the thread with
 * that error.
 */

export interface ParseJob {
  content: Uint8Array;
  limits: ParseLimits;
}

export type ParseOutcome = ({ parsed: ParsedWorkbook } | { rejected: { message: string; reason: RejectReason } }) & {
  /** The thread's heap after the parse, garbage included: what keeping the thread would hold on to. */
  heapBytes: number;
};

async function run(job: ParseJob): Promise<ParseOutcome> {
  try {
    const parsed = await parseWorkbook(Buffer.from(job.content.buffer, job.content.byteOffset, job.content.byteLength), job.limits);
    return { parsed, heapBytes: getHeapStatistics().total_heap_size };
  } catch (err) {
    if (err instanceof WorkbookRejected) return { rejected: { message: err.message, reason: err.reason }, heapBytes: getHeapStatistics().total_heap_size };
    throw err;
  }
}

parentPort!.on('message', (job: ParseJob) => {
  void run(job).then((outcome) => parentPort!.postMessage(outcome));
});
