import { expect, test, type Page } from '@playwright/test';
import { env, expectNoHorizontalOverflow, outboxSnapshot, screenshot, toast, waitForMail } from './support';

const sections = [
  { link: 'Vantaggi', id: 'vantaggi' },
  { link: 'Come funziona', id: 'come-funziona' },
  { link: 'Caratteristiche', id: 'caratteristiche' },
  { link: 'Plus', id: 'plus' },
] as const;

const HEADER_HEIGHT = 64;

/** The section is scrolled to and its top is not hidden under the sticky header. */
async function expectScrolledTo(page: Page, id: string) {
  await expect(page).toHaveURL(new RegExp(`#${id}$`));
  const section = page.locator(`section#${id}`);
  const heading = section.getByRole('heading', { level: 2 }).first();
  await expect(heading).toBeInViewport();
  // Smooth scrolling: wait until the section has settled just below the header.
  await expect
    .poll(async () => Math.round((await section.boundingBox())?.y ?? -1), { message: `#${id} top` })
    .toBeGreaterThanOrEqual(HEADER_HEIGHT - 2);
  await expect
    .poll(async () => Math.round((await section.boundingBox())?.y ?? -1))
    .toBeLessThanOrEqual(HEADER_HEIGHT + 2);
}

test.describe('Landing page, desktop 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('no horizontal overflow; header anchors scroll to their sections; Docs opens /api/docs in a new tab', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(
      page.getByRole('heading', { level: 1, name: /Gli abbonamenti dei tuoi clienti/ }),
    ).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'landing-desktop');

    const header = page.getByRole('banner');
    const nav = header.getByRole('navigation', { name: 'Principale' });
    await expect(nav).toBeVisible();
    // Registrati lives in the mobile menu only.
    await expect(page.getByRole('link', { name: 'Registrati' })).toHaveCount(0);
    await expect(header.getByRole('button', { name: 'Apri menu' })).toBeHidden();
    await expect(header.getByRole('link', { name: 'Login', exact: true })).toHaveAttribute('href', '/login');
    // Built from the server's WHATSAPP_PHONE (+39 333 1234567 in playwright.config.ts).
    await expect(header.getByRole('link', { name: 'Scrivici su WhatsApp' })).toHaveAttribute(
      'href',
      'https://wa.me/393331234567',
    );

    for (const { link, id } of sections) {
      await nav.getByRole('link', { name: link, exact: true }).click();
      await expectScrolledTo(page, id);
    }

    const docs = nav.getByRole('link', { name: /^Docs/ });
    await expect(docs).toHaveAttribute('target', '_blank');
    await expect(docs).toHaveAttribute('href', '/api/docs');
    await expect(docs).toHaveAttribute('rel', /noopener/);
    const res = await page.request.get('/api/docs');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/html');

    const [tab] = await Promise.all([page.waitForEvent('popup'), docs.click()]);
    await expect(tab).toHaveURL(/\/api\/docs/);
    await tab.close();
  });

  test('contact form: required and e-mail errors, then sent, and the message reaches SUPPORT_EMAIL', async ({
    page,
  }) => {
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Parliamo dei tuoi abbonamenti' });
    const send = form.getByRole('button', { name: 'Invia messaggio' });
    const required = form.getByText('Questo campo non può essere lasciato vuoto.');

    await send.click();
    await expect(required).toHaveCount(3);
    await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Messaggio')).toHaveAttribute('aria-invalid', 'true');

    await form.getByLabel('Email').fill('non-una-email');
    await send.click();
    await expect(
      form.getByText('Le informazioni fornite non sono valide. Controlla il formato del campo e riprova.'),
    ).toBeVisible();
    await expect(required).toHaveCount(2);

    const visitor = `visitatore.${Date.now().toString(36)}@esempio.it`;
    const text = `Vendo consulenze mensili, vorrei incassarle con PayPal (${visitor}).`;
    const before = await outboxSnapshot();
    await form.getByLabel('Email').fill(visitor);
    await form.getByLabel('Messaggio').fill(text);
    await form.getByRole('checkbox').check();
    await send.click();

    await expect(form.getByText('Il tuo messaggio è stato inviato.')).toBeVisible();
    // Spec §8: every message is a toast unless stated.
    await expect(toast(page, 'Il tuo messaggio è stato inviato.')).toBeVisible();
    await expect(required).toHaveCount(0);
    await expect(form.getByLabel('Email')).toHaveValue('');

    const mail = await waitForMail((m) => m.to === env.supportEmail && m.text.includes(text), before);
    expect(mail.replyTo).toBe(visitor);
    expect(mail.subject).toContain(visitor);
    expect(mail.text).toContain('Consenso privacy e ricontatto: sì');
  });
});

test.describe('Landing page, mobile 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('no horizontal overflow; the menu opens with Registrati and its anchors scroll', async ({ page }) => {
    await page.goto('/');
    await expect(
      page.getByRole('heading', { level: 1, name: /Gli abbonamenti dei tuoi clienti/ }),
    ).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'landing-mobile');

    const header = page.getByRole('banner');
    await expect(header.getByRole('navigation', { name: 'Principale' })).toBeHidden();
    await header.getByRole('button', { name: 'Apri menu' }).click();
    const menu = header.getByRole('navigation', { name: 'Menu mobile' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Registrati' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Registrati' })).toHaveAttribute('href', '/register');
    await expect(menu.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    await expect(menu.getByRole('link', { name: /^Docs/ })).toHaveAttribute('target', '_blank');
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'landing-mobile-menu');

    await menu.getByRole('link', { name: 'Caratteristiche' }).click();
    await expect(menu).toBeHidden();
    await expectScrolledTo(page, 'caratteristiche');
  });
});
