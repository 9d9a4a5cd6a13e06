import { expect, test } from '@playwright/test';

/**
 * Issue: "the sign-in page's first load carries no chart, dialog or select library". Measured in
 * the browser on the built SPA: every script the page fetches while /login loads, by name (Vite
 * names vendor chunks after their package: sweetalert2.all-*.js, react-select.esm-*.js, ...).
 */
test('/login loads no chart, dialog or select library, and every route is a lazy chunk', async ({ page }) => {
  const scripts: string[] = [];
  // Each script as [path, Content-Encoding, decoded size].
  const encodings: Promise<[string, string | null, number]>[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const file = new URL(response.url()).pathname;
    encodings.push(
      response.body().then((body) => [file, response.headers()['content-encoding'] ?? null, body.length]),
    );
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Accedi a Rinnova' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(scripts.length).toBeGreaterThan(0);
  const heavy = scripts.filter((s) => /recharts|sweetalert2|react-select|d3-|victory/i.test(s));
  expect(heavy, `heavy libraries in /login's first load: ${heavy.join(', ')}`).toEqual([]);
  // The login screen is its own chunk, fetched on demand rather than bundled into the entry.
  expect(scripts.some((s) => /login-page-[\w-]+\.js$/.test(s))).toBe(true);
  expect(scripts.some((s) => /landing|LandingPage/i.test(s))).toBe(false);
  // Issue 8: the HTML preloads the login screen's chunk (not discovered after the entry ran), and
  // every script arrives pre-compressed (brotli or gzip, as the browser asks).
  const html = await (await page.request.get('/login', { headers: { accept: 'text/html' } })).text();
  expect(html).toMatch(/<link rel="modulepreload"[^>]*href="\/assets\/login-page-[\w-]+\.js"/);
  // The build compresses every file of 512 bytes or more.
  for (const [file, encoding, size] of await Promise.all(encodings))
    expect(encoding, `${file} (${size} bytes)`).toEqual(
      size >= 512 ? expect.stringMatching(/^(br|gzip)$/) : null,
    );
});
