import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

const OWNER_ONLY_DIR = 0o700;
const GROUP_OTHER_BITS = 0o077;

/**
 * DATA_DIR holds the database, the JWT secret and the outbox (e-mails with live reset links):
 * readable by the owner only. New files get mode 600 / 700 (umask 077 for this process), and
 * what an earlier version left readable by others is tightened at every start.
 */
export async function secureDataDir(dir: string): Promise<void> {
  try {
    process.umask(GROUP_OTHER_BITS);
  } catch {
    // Worker threads cannot change the umask; the chmod below still protects what exists.
  }
  await mkdir(dir, { recursive: true, mode: OWNER_ONLY_DIR });
  await tighten(dir);
}

async function tighten(target: string): Promise<void> {
  try {
    const info = await lstat(target);
    if (info.isSymbolicLink()) return;
    if ((info.mode & GROUP_OTHER_BITS) !== 0) await chmod(target, info.mode & 0o700);
    if (!info.isDirectory()) return;
    for (const name of await readdir(target)) await tighten(path.join(target, name));
  } catch (error) {
    // The embedded database's process may be opening the directory meanwhile (npm start opens it
    // early): a file it removed between the listing and the look is nothing to tighten.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
