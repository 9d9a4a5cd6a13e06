import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

const OWNER_ONLY_DIR = 0o700;
const GROUP_OTHER_BITS = 0o077;

/**
 * DATA_DIR holds the database, the JWT secret and the outbox (e-mails with live reset links):
 * readable by the owner only. New files get mode 600 / 700 (umask 077 for this process and for
 * the embedded database's), and `tightenDataDir` takes away from others what is readable anyway:
 * files PGlite writes with modes of its own, and what an earlier version left.
 */
export async function prepareDataDir(dir: string): Promise<void> {
  try {
    process.umask(GROUP_OTHER_BITS);
  } catch {
    // Worker threads cannot change the umask; tightenDataDir still protects what exists.
  }
  await mkdir(dir, { recursive: true, mode: OWNER_ONLY_DIR });
}

/** Takes group and other permissions off everything under `target` (symlinks left alone). */
export async function tightenDataDir(target: string): Promise<void> {
  try {
    const info = await lstat(target);
    if (info.isSymbolicLink()) return;
    if ((info.mode & GROUP_OTHER_BITS) !== 0) await chmod(target, info.mode & 0o700);
    if (!info.isDirectory()) return;
    // Side by side: the embedded database's ~1,500 files one after the other took ~100 ms.
    await Promise.all((await readdir(target)).map((name) => tightenDataDir(path.join(target, name))));
  } catch (error) {
    // The embedded database's process may be opening the directory meanwhile (npm start opens it
    // early): a file it removed between the listing and the look is nothing to tighten.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
