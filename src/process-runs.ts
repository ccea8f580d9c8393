/** Whether a process of this host runs under `pid` (one of another user counts): whose leftover files may be removed. */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // runs, as another user
  }
}
