import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../../../src/lib/config';
import { renderLanding } from './helpers';

// The build-time settings are one object read at render time: set here, put back after, so the
// other files of the worker (modules are shared between files) see the defaults.
const mockConfig = config as { -readonly [K in keyof typeof config]: (typeof config)[K] };
const defaults = { ...config };
beforeEach(() => {
  Object.assign(mockConfig, { whatsappPhone: '+39 333 123-4567', supportEmail: 'aiuto@rinnova.example' });
});
afterEach(() => {
  Object.assign(mockConfig, defaults);
});

function header() {
  return within(screen.getByRole('banner'));
}

describe('landing header', () => {
  it('links the logo home and the sections as in-page anchors', () => {
    renderLanding();
    const home = header().getByRole('link', { name: /Rinnova/ });
    expect(home).toHaveAttribute('href', '/');
    expect(home.querySelector('img')).toHaveAttribute('src', '/logo.svg');
    expect(home).toHaveTextContent('Rinnova');

    const nav = within(screen.getByRole('navigation', { name: 'Principale' }));
    for (const [name, href] of [
      ['Vantaggi', '#vantaggi'],
      ['Come funziona', '#come-funziona'],
      ['Caratteristiche', '#caratteristiche'],
      ['Plus', '#plus'],
    ]) {
      expect(nav.getByRole('link', { name })).toHaveAttribute('href', href);
    }
  });

  it('opens Docs (the API reference) in a new tab and links Login to /login', () => {
    renderLanding();
    const docs = header().getByRole('link', { name: /^Docs/ });
    expect(docs).toHaveAttribute('href', '/api/docs');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(docs).toHaveAttribute('rel', 'noopener noreferrer');
    expect(header().getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });

  it('builds the WhatsApp chat link from the configured phone, digits only', () => {
    renderLanding();
    const chat = header().getByRole('link', { name: 'Scrivici su WhatsApp' });
    expect(chat).toHaveAttribute('href', 'https://wa.me/393331234567');
    expect(chat).toHaveAttribute('target', '_blank');
  });

  it('hides every chat link when no phone is configured', () => {
    mockConfig.whatsappPhone = '';
    renderLanding();
    expect(screen.queryByRole('link', { name: /WhatsApp/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/wa\.me/)).not.toBeInTheDocument();
  });

  it('offers Registrati only inside the mobile menu', async () => {
    const { user } = renderLanding();
    expect(screen.queryByRole('link', { name: 'Registrati' })).not.toBeInTheDocument();

    const toggle = screen.getByRole('button', { name: 'Apri menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);

    expect(toggle).toHaveAccessibleName('Chiudi menu');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = within(screen.getByRole('navigation', { name: 'Menu mobile' }));
    expect(menu.getByRole('link', { name: 'Registrati' })).toHaveAttribute('href', '/register');
    expect(menu.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(menu.getByRole('link', { name: /^Docs/ })).toHaveAttribute('target', '_blank');
    expect(menu.getByRole('link', { name: 'Come funziona' })).toHaveAttribute('href', '#come-funziona');
    expect(screen.getAllByRole('link', { name: 'Registrati' })).toHaveLength(1);
  });

  it('closes the mobile menu with Escape, the toggle, or by following a link', async () => {
    const { user } = renderLanding();
    const toggle = screen.getByRole('button', { name: 'Apri menu' });

    await user.click(toggle);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Menu mobile' })).not.toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    await user.click(toggle);
    expect(screen.queryByRole('navigation', { name: 'Menu mobile' })).not.toBeInTheDocument();

    await user.click(toggle);
    await user.click(
      within(screen.getByRole('navigation', { name: 'Menu mobile' })).getByRole('link', { name: 'Plus' }),
    );
    expect(screen.queryByRole('navigation', { name: 'Menu mobile' })).not.toBeInTheDocument();
  });
});

describe('landing sections', () => {
  it('has the anchor targets the navigation points to', () => {
    renderLanding();
    for (const id of ['hero', 'vantaggi', 'come-funziona', 'caratteristiche', 'plus', 'contatti']) {
      expect(document.getElementById(id), id).not.toBeNull();
    }
    // Every in-page link lands on an existing element.
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')) {
      expect(
        document.getElementById(link.getAttribute('href')!.slice(1)),
        link.textContent ?? '',
      ).not.toBeNull();
    }
  });

  it('puts the headline, the Docs link and the contact form in the hero, at most 540 px wide', () => {
    renderLanding();
    const hero = document.getElementById('hero')!;
    expect(within(hero).getByRole('heading', { level: 1 })).toHaveTextContent(/abbonamenti/i);
    expect(within(hero).getByRole('link', { name: /Documentazione API/ })).toHaveAttribute(
      'href',
      '/api/docs',
    );
    const form = within(hero).getByRole('form', { name: 'Parliamo dei tuoi abbonamenti' });
    expect(form.closest('.max-w-\\[540px\\]')).not.toBeNull();
  });

  it('shows two paths: no-code payment links and API integration, the latter opening the docs', () => {
    renderLanding();
    const section = within(document.getElementById('come-funziona')!);
    expect(section.getByRole('heading', { name: 'Link di pagamento senza codice' })).toBeInTheDocument();
    expect(section.getByRole('heading', { name: 'Integrazione API' })).toBeInTheDocument();
    const docs = section.getByRole('link', { name: /Apri la documentazione API/ });
    expect(docs).toHaveAttribute('href', '/api/docs');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(docs).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('lists exactly six feature cards covering every marketing claim', () => {
    renderLanding();
    const section = document.getElementById('caratteristiche')!;
    expect(within(section).getAllByRole('listitem')).toHaveLength(6);
    expect(within(section).getAllByRole('heading', { level: 3 })).toHaveLength(6);
    const text = section.textContent ?? '';
    for (const claim of [
      /PayPal o Stripe/,
      /funzionalità premium/,
      /direttamente sui tuoi conti/,
      /database dedicato/i,
      /SuperAdmin/,
      /Admin/,
      /bonifico/i,
      /approvi a mano/,
      /Grafici/,
      /tabelle esportabili/,
      /report PDF/,
      /Chiavi API tue/,
      /limiti di frequenza/,
      /log delle chiamate/,
    ]) {
      expect(text).toMatch(claim);
    }
  });

  it('points every call-to-action button at the hero', () => {
    renderLanding();
    for (const name of [
      'Raccontaci il tuo caso',
      'Inizia con i link di pagamento',
      'Chiedi informazioni',
      'Parliamone',
      'Contattaci',
    ]) {
      expect(screen.getByRole('link', { name })).toHaveAttribute('href', '#hero');
    }
  });

  it('names the advantages and architecture pillars sections', () => {
    renderLanding();
    expect(
      within(document.getElementById('vantaggi')!).getAllByRole('listitem').length,
    ).toBeGreaterThanOrEqual(3);
    expect(within(document.getElementById('plus')!).getAllByRole('listitem').length).toBeGreaterThanOrEqual(
      3,
    );
    expect(screen.getByRole('region', { name: /Meno tempo a rincorrere pagamenti/ })).toHaveAttribute(
      'id',
      'vantaggi',
    );
  });
});

describe('landing footer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('links the support e-mail and credits the current year', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-15T10:00:00Z'));
    renderLanding();
    const footer = within(document.getElementById('contatti')!);

    expect(footer.getByRole('link', { name: 'aiuto@rinnova.example' })).toHaveAttribute(
      'href',
      'mailto:aiuto@rinnova.example',
    );
    expect(footer.getByText(/© 2031 Rinnova/)).toBeInTheDocument();
    expect(footer.getByRole('link', { name: 'Scrivici su WhatsApp' })).toHaveAttribute(
      'href',
      'https://wa.me/393331234567',
    );
  });
});
