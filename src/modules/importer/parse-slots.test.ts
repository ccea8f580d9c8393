import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.js';
import { PARSES_BUSY_MESSAGE, ParseSlots } from './parse-slots.js';

/** A parse that runs until `finish` is called. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

const refusal = (err: unknown) => {
  expect(err).toBeInstanceOf(AppError);
  const e = err as AppError;
  return { status: e.status, message: e.message, headers: e.headers };
};

describe('parse slots', () => {
  it('runs at most `max` at once; without a wait, one more is refused at once with 429 and Retry-After', async () => {
    const slots = new ParseSlots(2, 0);
    const [a, b] = [held(), held()];
    const running = [slots.run(a.work), slots.run(b.work)];
    expect(refusal(await slots.run(async () => 'never').catch((e: unknown) => e))).toEqual({
      status: 429,
      message: PARSES_BUSY_MESSAGE,
      headers: { 'retry-after': '1' },
    });
    a.finish();
    await running[0];
    await expect(slots.run(async () => 'freed')).resolves.toBe('freed');
    b.finish();
    await running[1];
  });

  it('lets a parse wait for a freed slot, refuses one that waits too long, and lets no more than `max` wait', async () => {
    const slots = new ParseSlots(1, 300);
    const first = held();
    const running = slots.run(first.work);
    const waiting = slots.run(async () => 'after the first');
    // The one waiting place is taken: the next is refused at once.
    expect(refusal(await slots.run(async () => 'never').catch((e: unknown) => e)).status).toBe(429);
    first.finish();
    await running;
    await expect(waiting).resolves.toBe('after the first');

    const second = held();
    const busy = slots.run(second.work);
    const started = performance.now();
    expect(refusal(await slots.run(async () => 'never').catch((e: unknown) => e))).toEqual({
      status: 429,
      message: PARSES_BUSY_MESSAGE,
      headers: { 'retry-after': '1' },
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    second.finish();
    await busy;
    // Slots come back after failures too.
    await expect(slots.run(async () => Promise.reject(new Error('parse failed')))).rejects.toThrow('parse failed');
    await expect(slots.run(async () => 'still one slot')).resolves.toBe('still one slot');
  });
});
