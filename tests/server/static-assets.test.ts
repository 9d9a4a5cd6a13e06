import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressDir } from '../../scripts/build-lib.mjs';
import { createTestContext } from './helpers/test-app';
import type { TestContext } from './helpers/test-app';

/**
 * Issue 8: the built SPA is served pre-compressed (brotli, gzip, or as is, as the client's
 * Accept-Encoding allows) with the right cache headers, and the security headers still apply.
 * A small dist/ made here and compressed by the build's own step (scripts/build-lib.mjs).
 */
let ctx: TestContext;
let spaDir: string;
const script = `export const answer = () => ${JSON.stringify('Rinnova '.repeat(200))};\n`;
const html =
  '<!doctype html><html lang="it"><head><title>Rinnova SPA</title>' +
  '<script type="module" src="/assets/index-Ab12Cd34.js"></script></head>' +
  `<body><div id="root"></div><!-- ${'padding '.repeat(80)} --></body></html>`;
const smallSvg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
// What scripts/prerender.mjs writes: index.html with the page's markup in #root.
const loginHtml = html.replace('<div id="root"></div>', `<div id="root"><h1>Accedi a Rinnova</h1></div>`);

beforeAll(async () => {
  spaDir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-spa-compressed-'));
  await mkdir(path.join(spaDir, 'assets'));
  await writeFile(path.join(spaDir, 'index.html'), html);
  await writeFile(path.join(spaDir, 'login.html'), loginHtml);
  await writeFile(path.join(spaDir, 'assets', 'index-Ab12Cd34.js'), script);
  await writeFile(path.join(spaDir, 'logo.svg'), smallSvg);
  await compressDir(spaDir);
  ctx = await createTestContext({ app: { spaDir } });
});
afterAll(async () => {
  await ctx.close();
  await rm(spaDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url, headers });

describe('pre-compressed static files', () => {
  it('the build step writes .br and .gz beside each file worth compressing, not beside tiny ones', () => {
    for (const file of ['index.html', 'assets/index-Ab12Cd34.js']) {
      expect(existsSync(path.join(spaDir, `${file}.br`)), file).toBe(true);
      expect(existsSync(path.join(spaDir, `${file}.gz`)), file).toBe(true);
    }
    expect(existsSync(path.join(spaDir, 'logo.svg.br'))).toBe(false);
  });

  it('a fingerprinted asset: brotli, gzip or identity as accepted, cached for a year, immutable', async () => {
    const cases: Array<[string | null, string | undefined, (body: Buffer) => Buffer]> = [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['br;q=0.5, gzip', 'gzip', gunzipSync],
      ['gzip', 'gzip', gunzipSync],
      ['identity', undefined, (b) => b],
      [null, undefined, (b) => b],
    ];
    for (const [accept, encoding, decode] of cases) {
      const res = await get(
        '/assets/index-Ab12Cd34.js',
        accept === null ? {} : { 'accept-encoding': accept },
      );
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.headers['content-encoding'], String(accept)).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers.vary)).toContain('accept-encoding');
      expect(decode(res.rawPayload).toString(), String(accept)).toBe(script);
      if (encoding) expect(res.rawPayload.length).toBeLessThan(script.length / 4);
      // The security headers apply to files too.
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    }
  });

  it('index.html (the history fallback of every page) is compressed too and revalidated on each use', async () => {
    for (const url of ['/reset-password', '/', '/subscription?page=2', '/login/more']) {
      const res = await get(url, { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(html);
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const plain = await get('/register', { accept: 'text/html' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(html);
    // The plan widget keeps its own framing policy whatever the encoding.
    const widget = await get('/widget/plan?planId=1', { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(widget.headers['content-encoding']).toBe('gzip');
    expect(String(widget.headers['content-security-policy'])).toContain('frame-ancestors *');
    expect(widget.headers['x-frame-options']).toBeUndefined();
  });

  it('/login is its prerendered page (its markup in #root), whatever the query, compressed alike', async () => {
    for (const url of ['/login', '/login?sessionExpired=true']) {
      const res = await get(url, { accept: 'text/html', 'accept-encoding': 'gzip, br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(loginHtml);
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    }
    expect((await get('/login', { accept: 'text/html' })).body).toBe(loginHtml);
  });

  it('a file too small to compress is sent as is, revalidated (not fingerprinted)', async () => {
    const res = await get('/logo.svg', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(smallSvg);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('API answers are not affected: no-store, not served from the SPA folder', async () => {
    const res = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ data: { status: 'ok' } });
  });
});
