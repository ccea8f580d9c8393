import { randomBytes } from 'node:crypto';

export interface FilePart {
  filename: string;
  content: Buffer;
  contentType?: string;
}

/**
 * A multipart/form-data body built by hand, so tests control every byte (field order, a missing
 * file field, odd file names) the way a browser or a script would send them.
 */
export function multipartBody(fields: Record<string, string>, files: Record<string, FilePart> = {}): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----lawrisk${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, file] of Object.entries(files)) {
    const type = file.contentType ?? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\n` + `Content-Type: ${type}\r\n\r\n`),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
