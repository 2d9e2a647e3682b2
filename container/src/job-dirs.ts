/**
 * Where jobs keep their files: one directory per job inside a root owned by this process,
 * `<os.tmpdir()>/converter-<pid>-XXXXXX`. A job's directory is removed when its response has been
 * written or has failed; the root is removed on close. Roots left by a converter that crashed
 * (its pid no longer alive) are removed when the next one starts, so even `kill -9` leaves no
 * user file behind for long.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT_NAME = /^converter-(\d+)-/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the roots of converters that are no longer running; returns how many. */
export async function removeStaleRoots(base = tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(base).catch(() => [] as string[])) {
    const pid = Number(ROOT_NAME.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(pid) || pid === process.pid || alive(pid)) continue;
    await rm(join(base, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

export class JobDirs {
  readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  static async create(): Promise<JobDirs> {
    await removeStaleRoots();
    return new JobDirs(await mkdtemp(join(tmpdir(), `converter-${process.pid}-`)));
  }

  /** A fresh, private directory for one job. */
  make(): Promise<string> {
    return mkdtemp(join(this.root, "job-"));
  }

  async remove(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
  }

  async close(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}
