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
