import type { OutputStream } from './io.js';

const BAR_WIDTH = 24;

/**
 * Progress of a command made of known steps, on stderr: a bar redrawn in place on a terminal,
 * one plain line per step otherwise (logs and pipes keep a readable record).
 */
export class Progress {
  private done = 0;
  private drawn = false;

  constructor(
    private readonly out: OutputStream,
    private readonly total: number,
  ) {}

  /** Starts the next step. */
  step(label: string): void {
    this.done++;
    if (!this.out.isTTY) {
      this.out.write(`[${this.done}/${this.total}] ${label}\n`);
      return;
    }
    const filled = Math.round((BAR_WIDTH * (this.done - 1)) / Math.max(1, this.total));
    const bar = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${this.done}/${this.total} ${label}`;
    const columns = this.out.columns ?? 80;
    this.out.write(`\r\x1b[K${[...bar].slice(0, columns - 1).join('')}`);
    this.drawn = true;
  }

  /** Removes the bar before other output is written (the next step draws it again). */
  clear(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }
}
