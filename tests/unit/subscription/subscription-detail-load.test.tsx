/** /subscription/{id}: a detail that fails to load is toasted once, by the error path. */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import { renderApp } from '../app/harness';
import { subscriptionServer } from './fixtures';

afterEach(() => vi.restoreAllMocks());

describe('subscription detail load', () => {
  it('a refused detail toasts the load error once and logs it once', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    subscriptionServer([]); // GetById answers 404
    renderApp('/subscription/77', { role: Role.Admin, tenantId: 1 });
    expect(
      await screen.findByText(messages.http.loadError, undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getAllByText(messages.http.loadError)).toHaveLength(1);
    const lines = log.mock.calls.filter((c) => String(c[0]).includes('sottoscrizione 77'));
    expect(lines).toHaveLength(1);
  }, 20_000);
});
