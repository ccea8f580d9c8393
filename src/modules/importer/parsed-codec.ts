import { once } from 'node:events';
import { createGzip, gunzipSync } from 'node:zlib';
import type { ParsedWorkbook } from './parser/types.js';

const GZIP_PREFIX = 'gz1:';
/** JSON text handed to gzip at a time: small pieces die young, so no 38 MB string is ever built. */
const PIECE_CHARS = 64 * 1024;

/** The workbook's JSON, permit by permit (the same text JSON.stringify would give for the whole). */
function* jsonPieces(workbook: ParsedWorkbook): Generator<string> {
  yield `{"findings":${JSON.stringify(workbook.findings)},"sheets":[`;
  for (const [i, sheet] of workbook.sheets.entries()) {
    const { permits, ...head } = sheet;
    yield `${i > 0 ? ',' : ''}${JSON.stringify(head).slice(0, -1)},"permits":[`;
    for (const [j, permit] of permits.entries()) yield `${j > 0 ? ',' : ''}${JSON.stringify(permit)}`;
    yield ']}';
  }
  yield ']}';
}

/**
 * The parsed workbook as a session stores it: JSON, gzip-compressed, base64 in the text column.
 * A workbook's JSON repeats its column names on every row and compresses to a small fraction of
 * its size, so writing the session, reading it back and marking it committed stay cheap on both
 * databases. Compression runs on the zlib
 * thread pool, fed in pieces, right after the parse: the upload's peak memory does not grow.
 */
export async function encodeParsed(workbook: ParsedWorkbook): Promise<string> {
  const gzip = createGzip({ level: 3 });
  const chunks: Buffer[] = [];
  gzip.on('data', (c: Buffer) => chunks.push(c));
  const ended = once(gzip, 'end');
  let pending = '';
  const flush = async () => {
    if (!gzip.write(pending)) await once(gzip, 'drain');
    pending = '';
  };
  for (const piece of jsonPieces(workbook)) {
    pending += piece;
    if (pending.length >= PIECE_CHARS) await flush();
  }
  await flush();
  gzip.end();
  await ended;
  return GZIP_PREFIX + Buffer.concat(chunks).toString('base64');
}

/** Reads what encodeParsed wrote (plain JSON is accepted as well). */
export function decodeParsed(stored: string): ParsedWorkbook {
  const json = stored.startsWith(GZIP_PREFIX) ? gunzipSync(Buffer.from(stored.slice(GZIP_PREFIX.length), 'base64')).toString('utf8') : stored;
  return JSON.parse(json) as ParsedWorkbook;
}
