import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import LandingPage from '../../../src/features/landing/landing-page';

/** jsdom has no canvas: the decorative background must simply skip drawing. */
export function stubCanvas() {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
}

export function renderLanding() {
  stubCanvas();
  const user = userEvent.setup({ delay: null });
  const view = render(
    <MemoryRouter initialEntries={['/']}>
      <LandingPage />
    </MemoryRouter>,
  );
  return { user, ...view };
}

export function contactFields() {
  return {
    email: screen.getByLabelText('Email') as HTMLInputElement,
    message: screen.getByLabelText('Messaggio') as HTMLTextAreaElement,
    optIn: screen.getByRole('checkbox', {
      name: /Acconsento al trattamento dei dati personali/,
    }) as HTMLInputElement,
    submit: screen.getByRole('button', { name: 'Invia messaggio' }),
  };
}

/** Fills every field with valid values, except those named in `skip`. */
export async function fillContactForm(
  user: ReturnType<typeof userEvent.setup>,
  { skip = [] as Array<'email' | 'message' | 'optIn'>, email = 'giulia@studiorossi.it' } = {},
) {
  const f = contactFields();
  if (!skip.includes('email')) await user.type(f.email, email);
  if (!skip.includes('message'))
    await user.type(f.message, 'Vorrei incassare le consulenze mensili con PayPal.');
  if (!skip.includes('optIn')) await user.click(f.optIn);
  return f;
}
