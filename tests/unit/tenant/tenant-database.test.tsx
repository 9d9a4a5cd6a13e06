/**
 * The tenant's database below its form (issue 25; contract 'Tenancy'): a SuperAdmin reads the
 * server, the database and its size from GetById; an Admin, whom the API does not tell, sees no card.
 * On a tenant with its own database the SuperAdmin also has its operations (tenant-database.routes.ts):
 * backup and export downloads, restore from a chosen file, move to another configured server.
 */
import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import { formatBytes } from '../../../contract/format-bytes';
import { tenancyMessages } from '../../../contract/messages';
import { renderApp } from '../app/harness';
import { fakeEntityServer, fakeSelectServer } from '../components/fixtures';
import { apiGet, apiPost, deferred, fail, ok, server } from '../msw/server';
import { answerSwal } from '../subscription/fixtures';

type Database = { server: string; name: string; sizeBytes: number | null };

const tenant = (database?: Database) => ({
  id: 1,
  name: 'Acme S.r.l.',
  configuration: null,
  taxRegime: 'RF01',
  regionId: null,
  provinceId: null,
  ...(database ? { database } : {}),
});

const own: Database = { server: 'eu2', name: 'rinnova_t1', sizeBytes: 13_002_342 };
const control: Database = { server: 'control', name: 'rinnova', sizeBytes: null };

const B = {
  backup: 'Scarica backup',
  export: 'Esporta tutti i dati',
  restore: 'Ripristina da un backup…',
  move: 'Sposta su un altro server',
  target: 'Server di destinazione',
};

/** The tenant's detail, the region select of its form and the configured servers (calls recorded). */
function setup(database: Database | undefined, servers: string[] = ['control', 'eu2']) {
  const entity = fakeEntityServer('tenant', [tenant(database)]);
  fakeSelectServer('region', []);
  const serverCalls: Request[] = [];
  server.use(
    apiGet('tenant/database/servers', ({ request }) => {
      serverCalls.push(request);
      return ok(servers);
    }),
  );
  return { ...entity, serverCalls };
}

const card = () => screen.findByRole('region', { name: 'Database del tenant' });

/** The number of GetById calls answered so far (the detail is read again after a restore or move). */
function countDetailReads() {
  const reads: string[] = [];
  server.events.on('request:start', ({ request }) => {
    if (/\/tenant\/GetById\/1$/.test(new URL(request.url).pathname)) reads.push(request.url);
  });
  return reads;
}

/**
 * A chosen backup file. Node's own File: jsdom's carries no bytes through MSW's interception (the
 * request body arrives as 'undefined'), a browser's File is sent as it is.
 */
const backupFile = (content: string, name: string) => new NodeFile([content], name) as unknown as File;

// The tenant screen is a lazy route: its chunk (the form, the card, its operations) is transformed
// once here, not inside the first test's 5 s wait, which three files in parallel on two loaded
// cores overran.
beforeAll(async () => {
  await import('../../../src/features/tenant/tenant-screens');
}, 30_000);

let saved: string[] = [];
beforeEach(() => {
  saved = [];
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:tenant');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  document.querySelector('.swal2-container')?.remove();
});

describe('the tenant database card', () => {
  it('shows a SuperAdmin where the database lives and its size', async () => {
    setup(own);
    renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    expect(within(region).getByText('eu2')).toBeInTheDocument();
    expect(within(region).getByText('rinnova_t1')).toBeInTheDocument();
    expect(within(region).getByText('12,4 MB')).toBeInTheDocument();
  });

  it('names the embedded database in words, a configured server in monospace', async () => {
    setup({ server: 'embedded', name: 'rinnova_t1', sizeBytes: 14_900_000 });
    renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    const label = within(region).getByText('Database incorporato (questo server)');
    expect(label).not.toHaveClass('font-mono');
    expect(within(region).getByText('rinnova_t1')).toHaveClass('font-mono');
  });

  it('says a tenant still in the control database is not separated yet, and offers no operation', async () => {
    const { serverCalls } = setup(control);
    renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    expect(within(region).getByText('Server di controllo')).toBeInTheDocument();
    expect(within(region).getByText('Nel database di controllo (non ancora separato)')).toBeInTheDocument();
    expect(
      within(region).getByText(/Backup, esportazione, ripristino e spostamento saranno disponibili/),
    ).toBeInTheDocument();
    expect(within(region).getByText('npm run tenants -- split')).toBeInTheDocument();
    expect(within(region).queryByRole('button')).not.toBeInTheDocument();
    expect(within(region).queryByLabelText(B.restore)).not.toBeInTheDocument();
    expect(serverCalls).toEqual([]);
  });

  it('shows an Admin no card', async () => {
    const { serverCalls } = setup(undefined);
    renderApp('/tenant/1', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByRole('textbox', { name: 'Nome' })).toHaveValue('Acme S.r.l.');
    expect(screen.queryByRole('region', { name: 'Database del tenant' })).not.toBeInTheDocument();
    expect(serverCalls).toEqual([]);
  });

  it('writes sizes the Italian way', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1,5 kB');
    expect(formatBytes(1024 ** 3 * 2.25)).toBe('2,3 GB');
  });
});

describe('the tenant database operations', () => {
  it('Scarica backup: GETs the backup, busy while it downloads, saves it under the server name', async () => {
    setup(own);
    const gate = deferred();
    const requests: Request[] = [];
    server.use(
      apiGet('tenant/:id/database/backup', async ({ request }) => {
        requests.push(request);
        await gate.promise;
        return new HttpResponse(new Uint8Array([82, 73, 78]), {
          headers: {
            'content-type': 'application/octet-stream',
            'content-disposition': 'attachment; filename="tenant-1-2026-11-26.backup"',
          },
        });
      }),
    );
    const { user } = renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    await user.click(within(region).getByRole('button', { name: B.backup }));
    const busy = await within(region).findByRole('button', { name: 'Backup in corso…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    // One operation at a time: the others wait.
    expect(within(region).getByRole('button', { name: B.export })).toBeDisabled();
    expect(within(region).getByLabelText(B.restore)).toBeDisabled();
    gate.resolve();
    await waitFor(() => expect(saved).toEqual(['tenant-1-2026-11-26.backup']));
    expect(await screen.findByText('Backup scaricato: tenant-1-2026-11-26.backup.')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: B.backup })).toBeEnabled();
    expect(requests).toHaveLength(1);
    expect(new URL(requests[0]!.url).pathname).toBe('/api/tenant/1/database/backup');
    expect(requests[0]!.method).toBe('GET');
  });

  it('a refused backup shows the server’s Italian message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup(own);
    server.use(apiGet('tenant/:id/database/backup', () => fail(409, tenancyMessages.noOwnDatabase)));
    const { user } = renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    await user.click(within(await card()).getByRole('button', { name: B.backup }));
    expect(await screen.findByText(tenancyMessages.noOwnDatabase)).toBeInTheDocument();
    expect(screen.getAllByText(tenancyMessages.noOwnDatabase)).toHaveLength(1); // one toast
    expect(saved).toEqual([]);
  });

  it('Esporta tutti i dati: POSTs export and saves the zip; a failure shows the server message', async () => {
    setup(own);
    const gate = deferred();
    const requests: Request[] = [];
    server.use(
      apiPost('tenant/:id/database/export', async ({ request }) => {
        requests.push(request);
        await gate.promise;
        return new HttpResponse(new Uint8Array([80, 75, 3, 4]), {
          headers: {
            'content-type': 'application/zip',
            'content-disposition': 'attachment; filename="tenant-1-2026-11-26.zip"',
          },
        });
      }),
    );
    const { user } = renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    await user.click(within(region).getByRole('button', { name: B.export }));
    expect(await within(region).findByRole('button', { name: 'Esportazione in corso…' })).toBeDisabled();
    gate.resolve();
    await waitFor(() => expect(saved).toEqual(['tenant-1-2026-11-26.zip']));
    expect(await screen.findByText('Esportazione scaricata: tenant-1-2026-11-26.zip.')).toBeInTheDocument();
    expect(requests.map((r) => [r.method, new URL(r.url).pathname])).toEqual([
      ['POST', '/api/tenant/1/database/export'],
    ]);

    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      apiPost('tenant/:id/database/export', () => fail(500, 'Esportazione interrotta: disco pieno.')),
    );
    await user.click(within(region).getByRole('button', { name: B.export }));
    expect(await screen.findByText('Esportazione interrotta: disco pieno.')).toBeInTheDocument();
  });

  it('Ripristina: a labelled file input, a confirmation; Annulla sends nothing', async () => {
    setup(own);
    const requests: Request[] = [];
    server.use(
      apiPost('tenant/:id/database/restore', ({ request }) => {
        requests.push(request);
        return ok({ server: 'eu2', database: 'rinnova_t1', state: 'ready' }, tenancyMessages.restored);
      }),
    );
    const { user } = renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const input = within(await card()).getByLabelText(B.restore);
    expect(input).toHaveAttribute('type', 'file');
    await user.upload(input, backupFile('RINNOVA-TENANT-BACKUP 1\n', 'tenant-1.backup'));
    const text = await answerSwal('Annulla');
    expect(text).toMatch(/Ripristinare il tenant dal backup\?/);
    expect(text).toMatch(/tenant-1\.backup/);
    expect(text).toMatch(/torneranno allo stato del backup/);
    expect(text).toMatch(/non raggiungibile per qualche istante/);
    // A refused confirmation returns before any call (answerSwal waits for the dialog to close).
    expect(requests).toEqual([]);
    expect(input).toBeEnabled();
  });

  it('Ripristina: confirmed, POSTs the file as application/octet-stream, toasts, reads the detail again', async () => {
    setup(own);
    const gate = deferred();
    const bodies: { type: string | null; bytes: string; path: string }[] = [];
    server.use(
      apiPost('tenant/:id/database/restore', async ({ request }) => {
        bodies.push({
          type: request.headers.get('content-type'),
          bytes: new TextDecoder().decode(await request.arrayBuffer()),
          path: new URL(request.url).pathname,
        });
        await gate.promise;
        return ok({ server: 'eu2', database: 'rinnova_t1_r1', state: 'ready' }, tenancyMessages.restored);
      }),
    );
    const reads = countDetailReads();
    const { user } = renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    const before = reads.length;
    await user.upload(
      within(region).getByLabelText(B.restore),
      backupFile('RINNOVA-TENANT-BACKUP 1\n{}\n', 'tenant-1.backup'),
    );
    await answerSwal('Sì, ripristina');
    expect(await within(region).findByText('Ripristino in corso…')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: B.backup })).toBeDisabled();
    gate.resolve();
    expect(await screen.findByText(tenancyMessages.restored)).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        type: 'application/octet-stream',
        bytes: 'RINNOVA-TENANT-BACKUP 1\n{}\n',
        path: '/api/tenant/1/database/restore',
      },
    ]);
    await waitFor(() => expect(reads.length).toBeGreaterThan(before));
  });

  it('Ripristina: a backup refused by the server shows its message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup(own);
    const refused = tenancyMessages.backupOfAnotherTenant(3, 1);
    server.use(apiPost('tenant/:id/database/restore', () => fail(400, refused)));
    const { user } = renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    await user.upload(within(region).getByLabelText(B.restore), backupFile('x', 'altro.backup'));
    await answerSwal('Sì, ripristina');
    expect(await screen.findByText(refused)).toBeInTheDocument();
    expect(screen.getAllByText(refused)).toHaveLength(1); // one toast
    expect(within(region).getByLabelText(B.restore)).toBeEnabled();
  });

  it('Sposta: the other servers to choose from, a confirmation (Annulla sends nothing), then POST move', async () => {
    setup(own, ['control', 'eu2', 'eu3']);
    const bodies: unknown[] = [];
    const gate = deferred();
    server.use(
      apiPost('tenant/:id/database/move', async ({ request }) => {
        bodies.push({ path: new URL(request.url).pathname, body: await request.json() });
        await gate.promise;
        return ok({ server: 'eu3', database: 'rinnova_t1', state: 'ready' }, tenancyMessages.moved('eu3'));
      }),
    );
    const reads = countDetailReads();
    const { user } = renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    const select = await within(region).findByRole('combobox', { name: B.target });
    // The server the tenant is on is not offered; 'control' reads as a person would.
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Server di controllo', 'eu3']);
    await user.selectOptions(select, 'eu3');

    await user.click(within(region).getByRole('button', { name: B.move }));
    const text = await answerSwal('Annulla');
    expect(text).toMatch(/Spostare il database del tenant\?/);
    expect(text).toMatch(/eu2 → eu3/);
    expect(bodies).toEqual([]);

    const before = reads.length;
    await user.click(within(region).getByRole('button', { name: B.move }));
    await answerSwal('Sì, sposta');
    expect(await within(region).findByRole('button', { name: 'Spostamento in corso…' })).toBeDisabled();
    expect(select).toBeDisabled();
    gate.resolve();
    expect(await screen.findByText('Tenant spostato sul server eu3.')).toBeInTheDocument();
    expect(bodies).toEqual([{ path: '/api/tenant/1/database/move', body: { server: 'eu3' } }]);
    await waitFor(() => expect(reads.length).toBeGreaterThan(before));
  });

  it(
    'Elimina: the tenant’s name typed to confirm (anything else refused in the dialog), then POST delete and back to the list',
    { timeout: 30_000 },
    async () => {
      setup(own);
      const bodies: unknown[] = [];
      server.use(
        apiPost('tenant/:id/database/delete', async ({ request }) => {
          bodies.push({ path: new URL(request.url).pathname, body: await request.json() });
          return ok(
            { exportFile: '/dati/exports/tenant-1.zip' },
            tenancyMessages.deletedWithExport('Acme S.r.l.'),
          );
        }),
      );
      const { user, router } = renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
      const region = await card();
      await user.click(within(region).getByRole('button', { name: 'Elimina il tenant…' }));
      const popup = await waitFor(() => {
        const el = document.querySelector<HTMLElement>('.swal2-popup');
        expect(el).not.toBeNull();
        return el as HTMLElement;
      });
      expect(popup.textContent).toMatch(/Eliminare il tenant con tutti i suoi dati\?/);
      const input = within(popup).getByRole('textbox', { name: 'Per confermare scrivi il nome del tenant' });
      await user.type(input, 'Demo');
      await user.click(within(popup).getByRole('button', { name: 'Elimina definitivamente' }));
      expect(
        await within(popup).findByText('Il nome non corrisponde: scrivilo esattamente come appare.'),
      ).toBeVisible();
      expect(bodies).toEqual([]);
      await user.clear(input);
      await user.type(input, tenant(own).name);
      await user.click(within(popup).getByRole('button', { name: 'Elimina definitivamente' }));
      expect(await screen.findByText(tenancyMessages.deletedWithExport('Acme S.r.l.'))).toBeInTheDocument();
      expect(bodies).toEqual([{ path: '/api/tenant/1/database/delete', body: { name: tenant(own).name } }]);
      await waitFor(() => expect(router.state.location.pathname).toBe('/tenant'));
    },
  );

  it('Sposta: a failed move shows the server message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup(own);
    const refused = tenancyMessages.moveFailed('pg_restore: errore.');
    server.use(apiPost('tenant/:id/database/move', () => fail(500, refused)));
    const { user } = renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    await within(region).findByRole('combobox', { name: B.target });
    await user.click(within(region).getByRole('button', { name: B.move }));
    await answerSwal('Sì, sposta');
    expect(await screen.findByText(refused)).toBeInTheDocument();
    expect(screen.getAllByText(refused)).toHaveLength(1); // one toast
  });

  it('Sposta is not offered with one configured server', async () => {
    const { serverCalls } = setup(own, ['eu2']);
    renderApp('/tenant/1', { role: Role.SuperAdmin, tenantId: 1 });
    const region = await card();
    await waitFor(() => expect(serverCalls).toHaveLength(1));
    expect(within(region).getByRole('button', { name: B.backup })).toBeInTheDocument();
    expect(within(region).queryByRole('combobox', { name: B.target })).not.toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: B.move })).not.toBeInTheDocument();
  });
});
