import { createInterface } from 'node:readline';
import { CliError } from './errors.js';
import type { CliIo, InputStream } from './io.js';

/** The first line of standard input (a password piped in by a script), without its line break. */
export async function readFirstLine(stdin: InputStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0].replace(/\r$/, '');
}

/** Whether the command can ask the person at the terminal. */
export function interactive(io: CliIo): boolean {
  return Boolean(io.stdin.isTTY && io.stderr.isTTY);
}

/** Asks on the terminal without echoing what is typed (a password). Ctrl-C cancels. */
export function askHidden(io: CliIo, question: string): Promise<string> {
  const stdin = io.stdin;
  io.stderr.write(question);
  return new Promise((resolve, reject) => {
    let answer = '';
    const finish = (err: Error | null) => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.off('data', onData);
      io.stderr.write('\n');
      if (err) reject(err);
      else resolve(answer);
    };
    const onData = (data: Buffer | string) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish(null);
        if (ch === '\u0003') return finish(new CliError('cancelled', 130));
        if (ch === '\u007f' || ch === '\b') answer = [...answer].slice(0, -1).join('');
        else if (ch >= ' ') answer += ch;
      }
    };
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** A yes/no question on the terminal; only "y" or "yes" agrees. */
export async function confirm(io: CliIo, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
