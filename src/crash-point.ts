/**
 * Crash points: named places inside a write where the fault tests (test/faults/) stop the real
 * server process to prove what a crash there leaves behind (docs/reliability.md).
 *
 * Inert unless the environment variable LAWRISK_CRASH_POINT names the point when the process
 * starts. Then reaching it prints one line `lawrisk crash point reached: <name>` on stdout and
 * waits forever (the transaction stays open), so the test can SIGKILL the process exactly there.
 * Never set it outside tests.
 */
export type CrashPoint =
  /** An import commit, inside its transaction: permits written, risks and links not yet. */
  | 'import-commit'
  /** A checkpoint restore, inside its transaction: every table emptied and refilled, not committed. */
  | 'checkpoint-restore'
  /** A permit delete, inside its transaction: the snapshot saved, the permit not yet deleted. */
  | 'permit-delete'
  /** Any change of searchable data, just after its commit, before this instance's search index follows. */
  | 'data-changed';

export const CRASH_POINT_REACHED = 'lawrisk crash point reached:';

const armed = process.env.LAWRISK_CRASH_POINT ?? '';

export async function crashPoint(name: CrashPoint): Promise<void> {
  if (armed !== name) return;
  process.stdout.write(`${CRASH_POINT_REACHED} ${name}\n`);
  await new Promise<never>(() => {});
}
