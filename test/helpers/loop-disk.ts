import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * A small real disk for the tests of a full or read-only disk: an ext4 file system in a file,
 * loop-mounted with `errors=remount-ro`. Needs root and loop devices (CI runs as root on Debian);
 * `loopDiskUnavailable()` says why it cannot be used on this machine.
 */
export interface LoopDisk {
  /** The mounted directory. */
  dir: string;
  /** Fills every free block with a file of its own (writes then fail with ENOSPC). */
  fill(): void;
  /** Removes the filling file. */
  free(): void;
  /**
   * Makes the kernel take the file system read-only under the running process, as it does after
   * an I/O error (ext4's own test trigger, then `errors=remount-ro`): open files stay readable,
   * every write fails with EROFS.
   */
  failReadOnly(): void;
  /** Unmounts, checks (e2fsck) and mounts the image again read-write, as an administrator would after an error. */
  remount(): void;
  /** Unmounts (lazily, should a file still be open) and removes the image. */
  destroy(): void;
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'pipe' }).toString().trim();

/** Null when a loop disk can be mounted here, else the reason it cannot. */
export function loopDiskUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a loop file system needs root';
  try {
    run('mkfs.ext4', ['-V']);
    run('losetup', ['--version']);
  } catch {
    return 'mkfs.ext4 or losetup is not installed';
  }
  try {
    run('losetup', ['-f']);
  } catch {
    return 'no free loop device';
  }
  return null;
}

export function mountLoopDisk(sizeMb: number): LoopDisk {
  const root = mkdtempSync(join(tmpdir(), 'lawrisk-disk-'));
  const image = join(root, 'disk.img');
  const dir = join(root, 'mnt');
  mkdirSync(dir);
  run('truncate', ['-s', `${sizeMb}M`, image]);
  run('mkfs.ext4', ['-q', '-F', '-m', '0', image]);
  const mount = () => run('mount', ['-o', 'loop,errors=remount-ro', image, dir]);
  mount();
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'w');
      try {
        for (const size of [1 << 20, 4096, 512, 1]) {
          const chunk = Buffer.alloc(size, 1);
          try {
            for (;;) writeSync(fd, chunk);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    failReadOnly() {
      const device = basename(run('findmnt', ['-n', '-o', 'SOURCE', dir]));
      writeFileSync(`/sys/fs/ext4/${device}/trigger_fs_error`, 'lawrisk test: read-only disk');
    },
    remount() {
      run('umount', [dir]);
      // 0: clean, 1: errors corrected (the recorded error of failReadOnly); more is a real problem.
      const fsck = spawnSync('e2fsck', ['-fy', image], { stdio: 'pipe' });
      if (fsck.status === null || fsck.status > 1) throw new Error(`e2fsck failed (${fsck.status}): ${fsck.stdout}${fsck.stderr}`);
      mount();
    },
    destroy() {
      try {
        run('umount', ['-l', dir]);
      } catch {
        // not mounted any more
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
