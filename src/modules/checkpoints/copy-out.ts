import type pg from 'pg';
import { BINARY_COPY_HEADER, BINARY_COPY_TRAILER } from './copy-binary.js';

export interface CopiedRows {
  /** The rows: text, one line each; binary, the tuples without the file framing. */
  data: Buffer;
  /** The buffer `data` lies in, to be used again for another copy once `data` is done with. */
  storage: Buffer;
  rows: number;
  /** Where the last row starts in `data` (its length when there is none). */
  lastRowAt: number;
}

/**
 * `COPY … TO STDOUT` collected into one buffer, as a query object node-postgres submits and
 * feeds with the server's messages. The server sends each row as one CopyData message, so rows
 * are counted without reading them. In the binary format the header rides on the first message
 * and the trailer comes alone as the last; both are cut off. A stream (pg-copy-streams) cost a
 * fifth to a third more CPU here (the bench's risks: 1.42–1.78 s against 1.22–1.30 s): a buffer
 * object per row, and the concatenation.
 */
export class CopyOut implements pg.Submittable {
  private data: Buffer;
  private length = 0;
  private messages = 0;
  /** Where the last two messages start: in the binary format the last one is the trailer. */
  private starts = [0, 0];
  private error: Error | null = null;
  private settle!: { resolve: (rows: CopiedRows) => void; reject: (err: Error) => void };
  readonly done = new Promise<CopiedRows>((resolve, reject) => {
    this.settle = { resolve, reject };
  });

  /**
   * `storage`: a buffer to collect into (grown when too small); without one, one of `sizeHint`
   * bytes, so that a page like the last is allocated once.
   */
  constructor(
    private readonly text: string,
    private readonly binary: boolean,
    storage: Buffer | undefined,
    sizeHint: number,
  ) {
    this.data = storage ?? Buffer.allocUnsafe(Math.max(sizeHint, 64 * 1024));
  }

  submit(connection: pg.Connection): void {
    (connection as unknown as { query(text: string): void }).query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    const { chunk } = message;
    if (this.length + chunk.length > this.data.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.data.length * 2, this.length + chunk.length));
      this.data.copy(grown, 0, 0, this.length);
      this.data = grown;
    }
    chunk.copy(this.data, this.length);
    this.starts = [this.starts[1], this.length];
    this.length += chunk.length;
    this.messages++;
  }

  handleCommandComplete(): void {}

  handleError(err: Error): void {
    this.error = err;
  }

  handleReadyForQuery(): void {
    if (this.error) {
      this.settle.reject(this.error);
      return;
    }
    if (!this.binary) {
      const rows = this.messages;
      const lastRowAt = rows > 0 ? this.starts[1] : this.length;
      this.settle.resolve({ data: this.data.subarray(0, this.length), storage: this.data, rows, lastRowAt });
      return;
    }
    const header = BINARY_COPY_HEADER.length;
    const end = this.length - BINARY_COPY_TRAILER.length;
    if (this.messages < 1 || end < header || this.data.readInt16BE(end) !== -1) {
      this.settle.reject(new Error('unexpected binary COPY output'));
      return;
    }
    const rows = this.messages - 1;
    const lastRowAt = rows === 0 ? end : Math.max(this.starts[0], header);
    this.settle.resolve({ data: this.data.subarray(header, end), storage: this.data, rows, lastRowAt: lastRowAt - header });
  }
}

/** Runs `COPY (…) TO STDOUT` on the client; answers its rows (binary: without the file framing). */
export function copyOut(client: pg.PoolClient, text: string, binary: boolean, storage: Buffer | undefined, sizeHint: number): Promise<CopiedRows> {
  const query = new CopyOut(text, binary, storage, sizeHint);
  void client.query(query);
  return query.done;
}
