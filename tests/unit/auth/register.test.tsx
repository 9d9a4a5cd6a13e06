import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '../../../contract/enums';
import { currentUrl, renderApp } from '../app/harness';

describe('/register', () => {
  it('is public: explains how to get an account and links to the contact form and to sign-in', async () => {
    const { router, user } = renderApp('/register');
    expect(
      await screen.findByRole('heading', { name: 'Attiva Rinnova per la tua attività' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Scrivici dal modulo contatti' })).toHaveAttribute(
      'href',
      '/#hero',
    );
    await user.click(screen.getByRole('link', { name: 'Accedi' }));
    expect(currentUrl(router)).toBe('/login');
  });

  it('sends a signed-in user home instead', async () => {
    const { router } = renderApp('/register', { role: Role.Admin, tenantId: 1 });
    await screen.findByRole('main');
    expect(currentUrl(router)).not.toBe('/register');
  });
});
