// @ts-check
/**
 * What `npm run build` produces and what `npm start` checks before starting, in plain JavaScript
 * so that `npm start` runs on Node alone (no TypeScript transform at start):
 * - dist/: the SPA (vite build), its prerendered public pages (scripts/prerender.mjs), every
 *   compressible file beside its .br and .gz (served by
 *   @fastify/static's `preCompressed`), and dist/.build-env.json, the settings Vite embedded;
 * - dist-server/main.mjs: the server (server/main.ts and what it imports from server/ and
 *   contract/) bundled by esbuild, node_modules left as imports.
 * Each is rebuilt only when missing, older than its sources, or (SPA) built with other values of
 * the settings Vite embeds (VITE_*, WHATSAPP_*, SUPPORT_*).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseEnv, promisify } from 'node:util';
import zlib from 'node:zlib';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const spaDir = path.join(root, 'dist');
export const serverDir = path.join(root, 'dist-server');
export const serverEntry = path.join(serverDir, 'main.mjs');
const spaStamp = path.join(spaDir, '.build-env.json');
const serverStamp = path.join(serverDir, '.build.json');

/** The settings Vite embeds in the SPA (vite.config.ts `envPrefix`). */
export const embeddedPrefixes = ['VITE_', 'WHATSAPP_', 'SUPPORT_'];
const spaSources = [
  'src',
  'contract',
  'public',
  'index.html',
  'vite.config.ts',
  'tailwind.config.ts',
  'package-lock.json',
  'scripts/build-lib.mjs',
  'scripts/prerender.mjs',
  'scripts/prerendered-pages.mjs',
];
const serverSources = [
  'server',
  'contract',
  'package-lock.json',
  'tsconfig.server.json',
  'scripts/build-lib.mjs',
  'scripts/prerendered-pages.mjs',
];

/** @param {string} file */
function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const info = statSync(file);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

/** @param {string} built @param {string[]} sources */
function olderThanSources(built, sources) {
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return sources.some((s) => newestMtime(path.join(root, s)) > builtAt);
}

/**
 * The embedded settings as Vite resolves them for a production build: .env, .env.local,
 * .env.production, .env.production.local (later files win), then the process environment.
 * Written by the build (vite.config.ts) and compared by `npm start`, so both sides agree.
 * @returns {string}
 */
export function embeddedEnv() {
  /** @type {Record<string, string>} */
  const merged = {};
  for (const name of ['.env', '.env.local', '.env.production', '.env.production.local']) {
    const file = path.join(root, name);
    if (existsSync(file)) Object.assign(merged, parseEnv(readFileSync(file, 'utf8')));
  }
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) merged[key] = value;
  const entries = Object.entries(merged)
    .filter(([key]) => embeddedPrefixes.some((p) => key.startsWith(p)))
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(Object.fromEntries(entries));
}

/** Written at the end of every vite build (vite.config.ts), `npm run build` included. */
export function writeSpaStamp() {
  writeFileSync(spaStamp, embeddedEnv());
}

export function spaIsStale() {
  if (!existsSync(spaStamp) || readFileSync(spaStamp, 'utf8') !== embeddedEnv()) return true;
  return olderThanSources(path.join(spaDir, 'index.html'), spaSources);
}

export function serverIsStale() {
  if (!existsSync(serverStamp)) return true;
  // The bundle holds absolute paths of this checkout (see sourcePaths): a moved copy rebuilds.
  if (readFileSync(serverStamp, 'utf8') !== JSON.stringify({ root })) return true;
  return olderThanSources(serverEntry, serverSources);
}

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|map|webmanifest|ico|wasm)$/i;
const MIN_BYTES = 512;
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * Writes file.br (brotli, quality 11) and file.gz (gzip -9) beside every compressible file of
 * `dir` that gains from it; compressions run in parallel (libuv's thread pool).
 * @param {string} dir
 */
export async function compressDir(dir) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} at */
  const walk = async (at) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (COMPRESSIBLE.test(entry.name)) files.push(full);
    }
  };
  await walk(dir);
  await Promise.all(
    files.map(async (file) => {
      const body = await readFile(file);
      if (body.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzip(body, { level: 9 }),
      ]);
      if (br.length < body.length) await writeFile(`${file}.br`, br);
      if (gz.length < body.length) await writeFile(`${file}.gz`, gz);
    }),
  );
}

/**
 * esbuild plugin: `import.meta.url` / `dirname` / `filename` keep naming the source file once
 * bundled, so `new URL('./migrations', import.meta.url)` still finds the folder beside the source.
 * @returns {import('esbuild').Plugin}
 */
function sourcePaths() {
  return {
    name: 'source-paths',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await readFile(args.path, 'utf8');
        const contents = source
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents, loader: 'ts' };
      });
    },
  };
}

/**
 * Packages bundled into dist-server/main.mjs with the server's own code: plain JavaScript that
 * finds none of its own files at run time. Loading them as one file instead of hundreds of modules
 * halves the start's module loading. Every other package stays an import from node_modules,
 * resolved at run time as in development: packages that read files beside their code (PGlite's
 * WebAssembly, pdfkit's fonts, xmllint's WebAssembly, Swagger UI's pages, pino's transport
 * worker) and any package added later, until it is checked and listed here.
 */
const INLINED_PACKAGES = new Set([
  'fastify',
  'fastify-plugin',
  'fastify-type-provider-zod',
  '@fastify/cors',
  'helmet',
  '@fastify/jwt',
  '@fastify/rate-limit',
  '@fastify/static',
  'zod',
  'drizzle-orm',
  'date-fns',
  '@date-fns/tz',
  'pg',
  'pg-boss',
  'nodemailer',
  'xmlbuilder2',
  'yazl',
]);
/** Never bundled, even when an inlined package imports them (files or workers beside their code). */
const NEVER_INLINED =
  /^(?:pino|pino-pretty|thread-stream|pg-native|@fastify\/swagger|@fastify\/swagger-ui|@electric-sql\/.*)(?:\/|$)/;

/** @param {string} specifier */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * esbuild plugin: which bare imports are bundled (see INLINED_PACKAGES). Imports made inside an
 * inlined package follow it, except NEVER_INLINED.
 * @returns {import('esbuild').Plugin}
 */
function chooseInlined() {
  return {
    name: 'choose-inlined',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || NEVER_INLINED.test(args.path)) return { external: true };
        const fromDependency = args.importer.includes(`${path.sep}node_modules${path.sep}`);
        if (fromDependency || INLINED_PACKAGES.has(packageName(args.path))) return undefined;
        return { external: true };
      });
    },
  };
}

/** Bundles server/main.ts into dist-server/main.mjs (ES2022 modules, Node 20 and later). */
export async function buildServer() {
  const esbuild = await import('esbuild');
  await mkdir(serverDir, { recursive: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts' },
    outdir: serverDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Inlined CommonJS packages call require(): give the bundle one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    tsconfig: 'tsconfig.server.json',
    sourcemap: 'linked',
    // Stack traces need the mappings, not the sources' text: Node reads and parses the whole map
    // when the bundle loads (with the text it was ~9.5 MB and ~0.3 s of every start's CPU).
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [chooseInlined(), sourcePaths()],
  });
  // esbuild's service process (~240 MB) would otherwise live as long as the server `npm start`
  // runs after a rebuild.
  await esbuild.stop();
  await writeFile(serverStamp, JSON.stringify({ root }));
}

/** `vite build` in a child process (its plugin compresses dist/ and writes the stamp). */
export function buildSpa() {
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) throw new Error('vite build non riuscita.');
}

/**
 * Builds what is stale; answers what it built.
 * @param {{ log?: (line: string) => void }} [options]
 */
export async function buildIfStale(options = {}) {
  const log = options.log ?? (() => undefined);
  /** @type {string[]} */
  const built = [];
  if (spaIsStale()) {
    log('Compilazione della SPA (vite build)...');
    buildSpa();
    built.push('spa');
  }
  if (serverIsStale()) {
    log('Compilazione del server (esbuild)...');
    await buildServer();
    built.push('server');
  }
  return built;
}

// `node scripts/build-lib.mjs server`: the server bundle alone (the last step of `npm run build`).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'server') await buildServer();
  else await buildIfStale({ log: console.log });
}
