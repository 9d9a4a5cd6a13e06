import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { fakeEntityServer } from '../components/fixtures';
import { renderApp } from './harness';
import { createQueryClient } from '../../../src/app/query-client';
import { AppProviders, toastHotKeys } from '../../../src/app/providers';
import { notify } from '../../../src/lib/notify';

describe('toasts (spec §2, Notifications)', () => {
  it('Alt+T is the hotkey, nothing else', () => {
    expect(toastHotKeys(new KeyboardEvent('keydown', { altKey: true, code: 'KeyT' }))).toBe(true);
    expect(toastHotKeys(new KeyboardEvent('keydown', { code: 'KeyT' }))).toBe(false);
    expect(toastHotKeys(new KeyboardEvent('keydown', { altKey: true, code: 'KeyY' }))).toBe(false);
  });

  it('shows a toast at top-center in an Italian-labelled region; Alt+T focuses it', async () => {
    const user = userEvent.setup({ delay: null });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <p>app</p>
      </AppProviders>,
    );
    act(() => {
      notify.success('Elemento aggiornato!', { toastId: 't1' });
    });
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Elemento aggiornato!');
    expect(toast.closest('.Toastify__toast-container--top-center')).not.toBeNull();
    expect(screen.getByRole('region', { name: 'Notifiche (Alt+T)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Chiudi notifica' })).toBeInTheDocument();

    await user.keyboard('{Alt>}t{/Alt}');
    expect(toast).toHaveFocus();
  });
});

describe('toasts in the signed-in shell never cover the breadcrumb, the page title or its actions', () => {
  function screenWidth(narrow: boolean) {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: narrow && query.includes('max-width'),
          media: query,
          addEventListener: () => {},
          removeEventListener: () => {},
        }) as unknown as MediaQueryList,
    );
  }
  afterEach(() => vi.restoreAllMocks());

  it.each([
    [false, 'top-center'],
    [true, 'bottom-center'],
  ])('narrow screen %s → %s', async (narrow, area) => {
    screenWidth(narrow);
    fakeEntityServer('region', []);
    renderApp('/region', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    act(() => {
      notify.success('Elemento aggiornato!', { toastId: `shell-${area}` });
    });
    const toast = await screen.findByText('Elemento aggiornato!');
    expect(toast.closest(`.Toastify__toast-container--${area}`)).not.toBeNull();
  });
});
