// @ts-check
/**
 * `node scripts/parallel.mjs lint typecheck`: the given npm scripts side by side (each prints as
 * it runs); fails when any fails. `npm test` runs the static checks this way: each is mostly one
 * core's work, and the machine has two.
 */
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
const results = await Promise.all(
  scripts.map(
    (name) =>
      /** @type {Promise<[string, number]>} */ (
        new Promise((resolve) => {
          const child = spawn('npm', ['run', '--silent', name], { stdio: 'inherit' });
          child.once('exit', (code, signal) => resolve([name, code ?? (signal ? 1 : 0)]));
          child.once('error', () => resolve([name, 1]));
        })
      ),
  ),
);
const failed = results.filter(([, code]) => code !== 0).map(([name]) => name);
if (failed.length > 0) {
  console.error(`Non riuscito: ${failed.join(', ')}`);
  process.exit(1);
}
