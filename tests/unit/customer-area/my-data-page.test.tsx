/**
 * 'I miei dati' (issue 28): the page says what the file holds and leaves out, and its two buttons
 * download JSON and PDF from GET user/me/data, saved under the server's file name; a failure is an
 * Italian toast with the server's reason.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { customerAreaMessages } from '../../../contract/messages';
import { createQueryClient } from '../../../src/app/query-client';
import MyDataPage from '../../../src/features/customer-area/my-data-page';
import { notify } from '../../../src/lib/notify';
import { apiGet, deferred, fail, server } from '../msw/server';

let saved: string[] = [];
beforeEach(() => {
  saved = [];
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:i-miei-dati');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => vi.restoreAllMocks());

function renderPage() {
  const toast = { error: vi.spyOn(notify, 'error').mockImplementation(() => {}) };
  vi.spyOn(console, 'error').mockImplementation(() => {});
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MyDataPage routeLabel="I miei dati" />
    </QueryClientProvider>,
  );
  return { toast, user: userEvent.setup({ delay: null }) };
}

describe('I miei dati', () => {
  it('explains in Italian what is included and what is not', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'I miei dati' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cosa contiene' })).toBeInTheDocument();
    expect(screen.getByText(/dati di fatturazione \(codice fiscale, Partita IVA/)).toBeInTheDocument();
    expect(screen.getByText(/abbonamenti con il loro storico, i pagamenti/)).toBeInTheDocument();
    expect(screen.getByText(/le fatture e le note di credito/)).toBeInTheDocument();
    expect(screen.getByText(/non contiene password/)).toBeInTheDocument();
    expect(screen.getByText(/articoli 15 e 20 del GDPR/)).toBeInTheDocument();
  });

  it('Scarica JSON and Scarica PDF ask for their format and save the server’s file', async () => {
    const formats: (string | null)[] = [];
    const gate = deferred();
    server.use(
      apiGet('user/me/data', async ({ request }) => {
        const format = new URL(request.url).searchParams.get('format');
        formats.push(format);
        if (format === 'json') await gate.promise;
        return new HttpResponse(format === 'pdf' ? '%PDF-1.3' : '{"format":"rinnova-i-miei-dati"}', {
          headers: {
            'content-type': format === 'pdf' ? 'application/pdf' : 'application/json; charset=utf-8',
            'content-disposition': `attachment; filename="rinnova-i-miei-dati-2026-03-10.${format}"`,
          },
        });
      }),
    );
    const { user } = renderPage();
    await user.click(screen.getByRole('button', { name: 'Scarica JSON' }));
    // While the file is prepared both buttons wait.
    expect(await screen.findByRole('button', { name: 'Preparazione…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Scarica PDF' })).toBeDisabled();
    gate.resolve();
    await waitFor(() => expect(saved).toEqual(['rinnova-i-miei-dati-2026-03-10.json']));

    await user.click(await screen.findByRole('button', { name: 'Scarica PDF' }));
    await waitFor(() =>
      expect(saved).toEqual(['rinnova-i-miei-dati-2026-03-10.json', 'rinnova-i-miei-dati-2026-03-10.pdf']),
    );
    expect(formats).toEqual(['json', 'pdf']);
    expect(screen.getByRole('button', { name: 'Scarica JSON' })).toBeEnabled();
  });

  it('a refused download toasts the Italian text and the server’s reason once', async () => {
    server.use(apiGet('user/me/data', () => fail(503, 'Il servizio non è disponibile.')));
    const { toast, user } = renderPage();
    await user.click(screen.getByRole('button', { name: 'Scarica PDF' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledTimes(1));
    expect(toast.error).toHaveBeenCalledWith(
      `${customerAreaMessages.myDataFailed} Il servizio non è disponibile.`,
      undefined,
    );
    expect(saved).toEqual([]);
    expect(await screen.findByRole('button', { name: 'Scarica PDF' })).toBeEnabled();
  });
});
