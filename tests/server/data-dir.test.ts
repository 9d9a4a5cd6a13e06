/**
 * DATA_DIR is the owner's only: what an earlier version left readable by others (the database's
 * files, the outbox, the JWT secret) and what PGlite writes with modes of its own are tightened
 * at start, before the server listens (production-start.test.ts checks a whole start).
 */
import { chmod, lstat, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDataDir, tightenDataDir } from '../../server/lib/data-dir';

const root = await mkdtemp(path.join(os.tmpdir(), 'rinnova-data-dir-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const modeOf = async (file: string) => (await lstat(file)).mode & 0o777;

describe('the data directory', () => {
  it('tightens every file and folder an earlier version left readable, and leaves symlinks alone', async () => {
    const dir = path.join(root, 'data');
    const files: string[] = [];
    for (let d = 0; d < 5; d++) {
      const sub = path.join(dir, 'pglite', `base-${d}`, 'deeper');
      await mkdir(sub, { recursive: true });
      for (let f = 0; f < 40; f++) {
        const file = path.join(sub, `file-${f}`);
        await writeFile(file, 'x');
        await chmod(file, 0o644);
        files.push(file);
      }
      await chmod(sub, 0o755);
    }
    await writeFile(path.join(dir, 'jwt-secret'), 'segreto');
    await chmod(path.join(dir, 'jwt-secret'), 0o664);
    await chmod(dir, 0o755);
    const outside = path.join(root, 'outside');
    await writeFile(outside, 'non mio');
    await chmod(outside, 0o644);
    await symlink(outside, path.join(dir, 'link'));

    await prepareDataDir(dir);
    await tightenDataDir(dir);

    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(path.join(dir, 'jwt-secret'))).toBe(0o600);
    expect(await modeOf(path.join(dir, 'pglite', 'base-3', 'deeper'))).toBe(0o700);
    const modes = await Promise.all(files.map(modeOf));
    expect(modes.filter((m) => m !== 0o600)).toEqual([]);
    // A symlink's target is not the data directory's: left as it was.
    expect(await modeOf(outside)).toBe(0o644);
  });

  it('creates a missing directory owner-only', async () => {
    const dir = path.join(root, 'new', 'data');
    await prepareDataDir(dir);
    expect(await modeOf(dir)).toBe(0o700);
  });
});
