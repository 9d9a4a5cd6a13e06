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

/**
 * Issue 8: /login's HTML carries the page (prerendered at build time), so it paints before any
 * JavaScript has run; the app then hydrates that markup in place (the same nodes, no error), and
 * a visit the markup does not describe (here ?sessionExpired=true) is rendered afresh.
 */
test('/login paints from its HTML, then comes alive in place without errors', async ({ browser, page }) => {
  // Without JavaScript at all, the sign-in form is already there.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const bare = await noScript.newPage();
  await bare.goto('/login');
  await expect(bare.getByRole('heading', { name: 'Accedi a Rinnova' })).toBeVisible();
  await expect(bare.getByLabel('Email')).toBeVisible();
  await expect(bare.getByRole('button', { name: 'Accedi', exact: true })).toBeVisible();
  await noScript.close();

  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // The heading the HTML brought, kept before any module script runs (page code as text: this
  // file is type-checked without the DOM library).
  await page.addInitScript({
    content: `document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') window.prerendered = document.querySelector('h1');
    });`,
  });
  await page.goto('/login');
  await page.waitForLoadState('networkidle');
  // Hydrated: the field is React's (its errors show), and the heading is still the HTML's node.
  await page.getByRole('button', { name: 'Accedi', exact: true }).click();
  await expect(page.getByText('La password è obbligatoria.')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  const keptInPlace = await page.evaluate<boolean>(
    `!!window.prerendered && window.prerendered === document.querySelector('h1') && window.prerendered.isConnected`,
  );
  expect(keptInPlace).toBe(true);
  expect(problems).toEqual([]);

  await page.goto('/login?sessionExpired=true');
  await expect(page.getByText('La sessione è scaduta').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Accedi a Rinnova' })).toBeVisible();
  expect(problems).toEqual([]);
});
