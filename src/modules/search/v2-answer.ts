import { constants, gzipSync } from 'node:zlib';

/**
 * The /v2 answer as bytes: every field of `data` always present, most always empty (interface
 * 4.1). Only `executionTime` differs between two answers to the same question, so an answer is
 * kept as the bytes before it (one of two constants: matched or not) and the bytes after it (the
 * serialized `risk_subject` and `debug`, cached with the search result); a request joins them
 * around its own elapsed time without serializing or encoding anything again.
 */
export const NO_MATCH_TEXT = '抱歉,无法检索到相关答案';

function head(matched: boolean): Buffer {
  const data = {
    llmRespond: matched ? '' : NO_MATCH_TEXT,
    request: '',
    questionExtend: [],
    conversationId: '',
    messageId: '',
    workflowTrackingId: '',
    roundNumber: 0,
    conversationInfo: {},
    costStatistics: {},
    knowledgeSources: [],
    executionSteps: [],
    totalKnowledgeSources: 0,
  };
  const json = JSON.stringify({ success: true, message: 'OK', data });
  return Buffer.from(`${json.slice(0, -2)},"executionTime":`);
}

const HEAD_MATCHED = head(true);
const HEAD_NO_MATCH = head(false);

/** Everything after `executionTime`: the status, the items (already JSON) and the debug object. */
export function answerTail(count: number, itemsJson: string, debug: Record<string, unknown>): Buffer {
  const status = count > 0 ? 'ok' : 'no_match';
  return Buffer.from(`,"workflowStatus":"${status}","risk_subject":${itemsJson},"debug":${JSON.stringify(debug)}}}`);
}

export function answerBody(count: number, tail: Buffer, executionTimeMs: number): Buffer {
  return Buffer.concat([count > 0 ? HEAD_MATCHED : HEAD_NO_MATCH, Buffer.from(String(executionTimeMs)), tail]);
}

/** Answers at least this large go gzip-compressed to clients that accept it (a no-match answer does not). */
const GZIP_MIN_BYTES = 1024;
/**
 * Compressed copies kept per cached answer, one per `executionTime` value: a cached answer takes
 * 0 or 1 ms, so one or two copies serve every repeat of the question.
 */
const GZIP_VARIANTS = 4;

/** An answer as the cache keeps it (search.service.ts): its compressed copies live as long as its cache entry. */
export interface AnswerParts {
  count: number;
  /** The answer's permit ids, best first (the query log keeps the first few). */
  topPermitIds: string[];
  tail: Buffer;
  /** Compressed copies by executionTime; null when the answer is not cached (debug). */
  gzipped: Map<number, Buffer> | null;
}

/**
 * The answer gzip-compressed (about an eighth of its size), or null when it is too small to
 * gain. The fastest level: about half the time of the default for a quarter more bytes, which
 * matters for the many questions asked once. A cached answer keeps its copies, so a repeat
 * compresses nothing.
 */
export function gzippedAnswer(answer: AnswerParts, executionTimeMs: number): Buffer | null {
  if (HEAD_MATCHED.length + answer.tail.length < GZIP_MIN_BYTES) return null;
  const kept = answer.gzipped?.get(executionTimeMs);
  if (kept) return kept;
  const body = gzipSync(answerBody(answer.count, answer.tail, executionTimeMs), { level: constants.Z_BEST_SPEED });
  if (answer.gzipped && answer.gzipped.size < GZIP_VARIANTS) answer.gzipped.set(executionTimeMs, body);
  return body;
}

/** Whether an Accept-Encoding header admits gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
