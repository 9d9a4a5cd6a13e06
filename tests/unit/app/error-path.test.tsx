/**
 * The one error path (app/query-client.ts → lib/http-errors.ts reportFailure): a failed mutation
 * that declares `meta.errorMessage` is logged once and toasted once; codes the interceptor handles
 * or the screen declares silent toast nothing.
 */
import { QueryClientProvider, useMutation } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../src/app/query-client';
import { downloadFile, downloadMessageOr } from '../../../src/lib/download-file';
import { http } from '../../../src/lib/http';
import { serverMessageOr, type ErrorMeta } from '../../../src/lib/http-errors';
import { notify } from '../../../src/lib/notify';
import { apiGet, apiPost, fail, server } from '../msw/server';

afterEach(() => vi.restoreAllMocks());

function failingMutation(meta: ErrorMeta & Record<string, unknown>) {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(
    () =>
      useMutation({
        mutationFn: () => http.post('test/action', {}, { skipSessionRedirect: false }),
        meta,
      }),
    { wrapper },
  );
}

function spies() {
  return {
    toast: vi.spyOn(notify, 'error').mockImplementation(() => {}),
    log: vi.spyOn(console, 'error').mockImplementation(() => {}),
  };
}

describe('error path of mutations', () => {
  it('a failed mutation toasts the server’s message once and logs once', async () => {
    server.use(apiPost('test/action', () => fail(409, 'Operazione in conflitto con lo stato attuale.')));
    const { toast, log } = spies();
    const { result } = failingMutation({
      errorMessage: serverMessageOr('Operazione non riuscita. Riprova.'),
    });
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(toast).toHaveBeenCalledTimes(1);
    expect(toast).toHaveBeenCalledWith('Operazione in conflitto con lo stato attuale.', undefined);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('without a server message the call’s fallback is toasted', async () => {
    server.use(apiPost('test/action', () => fail(500, null)));
    const { toast } = spies();
    const { result } = failingMutation({
      errorMessage: serverMessageOr('Operazione non riuscita. Riprova.'),
    });
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(toast).toHaveBeenCalledTimes(1);
    expect(toast).toHaveBeenCalledWith('Operazione non riuscita. Riprova.', undefined);
  });

  it('a code declared silent toasts nothing (still logged)', async () => {
    server.use(apiPost('test/action', () => fail(409, 'Già fatto.')));
    const { toast, log } = spies();
    const { result } = failingMutation({ errorMessage: 'Errore', silent: [409] });
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(toast).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('field errors declared silent toast nothing; other 400s still toast', async () => {
    server.use(
      apiPost('test/action', () =>
        fail(400, 'I dati inviati non sono validi.', null, ['amount: L’importo deve essere maggiore di 0.']),
      ),
    );
    const { toast } = spies();
    const { result } = failingMutation({ errorMessage: 'Errore', silent: ['fieldErrors'] });
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(toast).not.toHaveBeenCalled();

    server.use(apiPost('test/action', () => fail(400, 'Richiesta non valida.')));
    act(() => result.current.mutate());
    await waitFor(() => expect(toast).toHaveBeenCalledTimes(1));
  });

  it('a mutation without meta.errorMessage is left to its screen', async () => {
    server.use(apiPost('test/action', () => fail(409, 'No.')));
    const { toast, log } = spies();
    const { result } = failingMutation({});
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(toast).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });
});

describe('error path of downloads', () => {
  /** A download as the screens run it: bytes asked for, so a refusal's envelope arrives as bytes too. */
  function failingDownload(fallback: string) {
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    return renderHook(
      () =>
        useMutation({
          mutationFn: () => downloadFile('test/file', { fileName: 'file.pdf' }),
          meta: { errorMessage: downloadMessageOr(fallback) },
        }),
      { wrapper },
    );
  }

  it('meta.errorMessage as a function of the error reads the server’s message from the bytes, once', async () => {
    server.use(apiGet('test/file', () => fail(404, 'Fattura non trovata.')));
    const { toast, log } = spies();
    const { result } = failingDownload('Download non riuscito. Riprova.');
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(toast).toHaveBeenCalledTimes(1);
    expect(toast).toHaveBeenCalledWith('Fattura non trovata.', undefined);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('bytes without a message toast the fallback', async () => {
    server.use(apiGet('test/file', () => fail(500, null)));
    const { toast } = spies();
    const { result } = failingDownload('Download non riuscito. Riprova.');
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(toast).toHaveBeenCalledTimes(1);
    expect(toast).toHaveBeenCalledWith('Download non riuscito. Riprova.', undefined);
  });
});

describe('isSilentFailure', () => {
  const httpError = (status: number | undefined, code?: string, skipSessionRedirect = false) => ({
    isAxiosError: true,
    code,
    config: { skipSessionRedirect },
    response: status === undefined ? undefined : { status, data: {} },
  });

  it('is silent for what the interceptor already handled (401, network), unless the request opted out', async () => {
    const { isSilentFailure } = await import('../../../src/lib/http-errors');
    expect(isSilentFailure(httpError(401))).toBe(true);
    expect(isSilentFailure(httpError(undefined, 'ERR_NETWORK'))).toBe(true);
    expect(isSilentFailure(httpError(401, undefined, true))).toBe(false);
    expect(isSilentFailure(httpError(403))).toBe(false);
    expect(isSilentFailure(httpError(500))).toBe(false);
  });
});
