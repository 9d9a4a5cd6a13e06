/** The dashboard's 'Report PDF': download and e-mail, their failures through the one error path. */
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportMessages } from '../../../contract/messages';
import { createQueryClient } from '../../../src/app/query-client';
import { ReportBar } from '../../../src/features/dashboard/report-bar';
import { notify } from '../../../src/lib/notify';
import { apiGet, apiPost, fail, ok, server } from '../msw/server';

afterEach(() => vi.restoreAllMocks());

function renderBar() {
  const toast = {
    error: vi.spyOn(notify, 'error').mockImplementation(() => {}),
    success: vi.spyOn(notify, 'success').mockImplementation(() => {}),
  };
  vi.spyOn(console, 'error').mockImplementation(() => {});
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ReportBar />
    </QueryClientProvider>,
  );
  return { toast, user: userEvent.setup() };
}

describe('ReportBar', () => {
  it('a refused PDF toasts the call’s text and the server’s reason once (read from the bytes)', async () => {
    server.use(apiGet('report/pdf', () => fail(400, 'Mese non valido.')));
    const { toast, user } = renderBar();
    await user.click(screen.getByRole('button', { name: 'Report PDF' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledTimes(1));
    expect(toast.error).toHaveBeenCalledWith(`${reportMessages.reportFailed} Mese non valido.`, undefined);
    expect(await screen.findByRole('button', { name: 'Report PDF' })).toBeEnabled();
  });

  it('a refused send toasts the call’s text once and keeps the address', async () => {
    server.use(apiPost('report/send', () => fail(500, null)));
    const { toast, user } = renderBar();
    await user.type(screen.getByLabelText('Invia a (email)'), 'studio@example.it');
    await user.click(screen.getByRole('button', { name: 'Invia per email' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledTimes(1));
    expect(toast.error).toHaveBeenCalledWith(reportMessages.sendFailed, undefined);
    expect(screen.getByLabelText('Invia a (email)')).toHaveValue('studio@example.it');
  });

  it('a queued send toasts the server’s message and clears the address', async () => {
    const bodies: unknown[] = [];
    server.use(
      apiPost('report/send', async ({ request }) => {
        bodies.push(await request.json());
        return ok({ jobId: 'j1' }, null);
      }),
    );
    const { toast, user } = renderBar();
    await user.type(screen.getByLabelText('Invia a (email)'), ' studio@example.it ');
    await user.click(screen.getByRole('button', { name: 'Invia per email' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(reportMessages.queued('studio@example.it')),
    );
    await waitFor(() => expect(screen.getByLabelText('Invia a (email)')).toHaveValue(''));
    expect(bodies).toHaveLength(1);
    expect((bodies[0] as { email: string }).email).toBe('studio@example.it');
    expect(toast.error).not.toHaveBeenCalled();
  });
});
