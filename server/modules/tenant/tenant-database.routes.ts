/**
 * The SuperAdmin's calls on one tenant's database (issue 25, operations; db/tenancy/operations.ts):
 * the configured servers, a backup as a download, a restore from an uploaded backup, a move to
 * another server, an export (zip) as a download. SuperAdmin only; global calls, no X-Tenant-Id:
 * the tenant is in the path. Without tenant databases (tests' default app) the operations answer
 * 409 'Il tenant non ha ancora un database proprio.'.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SUPER_ADMINS } from '../../../contract/access';
import { tenancyMessages } from '../../../contract/messages';
import type { Database } from '../../db/client';
import { tenantNameOf } from '../../crud/tenant-name';
import type { TenantOperations } from '../../db/tenancy/operations';
import type { TenantDatabases } from '../../db/tenancy/tenant-databases';
import { envelopeOf, ok } from '../../lib/envelope';
import { HttpError } from '../../lib/http-error';

const superAdmin = { access: 'user', roles: SUPER_ADMINS, tenant: 'optional' } as const;
const tags = ['tenant'];
const params = z.object({ id: z.coerce.number().int().positive() });
const placementSchema = z.object({
  server: z.string(),
  database: z.string().nullable(),
  state: z.enum(['ready', 'readOnly', 'unavailable']),
});
/** An uploaded backup larger than this is refused (413). */
const MAX_UPLOAD_BYTES = 4 * 1024 ** 3;

export function registerTenantDatabaseRoutes(
  fastify: FastifyInstance,
  deps: {
    tenancy: TenantDatabases | undefined;
    operations: TenantOperations | undefined;
    clock: () => Date;
    /** The control database: the tenant's name a delete is confirmed with. */
    control: Database;
    /** Where a delete keeps the export it takes first (DATA_DIR/exports). */
    exportsDir: string;
  },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const operations = (): TenantOperations => {
    if (!deps.operations) throw new HttpError(409, tenancyMessages.noOwnDatabase);
    return deps.operations;
  };
  const day = () => deps.clock().toISOString().slice(0, 10);

  /** Runs `write(file)` in a private temporary directory and sends the file; the directory goes after. */
  async function download(
    reply: FastifyReply,
    fileName: string,
    contentType: string,
    write: (file: string) => Promise<unknown>,
  ): Promise<FastifyReply> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-download-'));
    const cleanup = () => void rm(dir, { recursive: true, force: true });
    try {
      const file = path.join(dir, fileName);
      await write(file);
      const stream = createReadStream(file);
      stream.once('close', cleanup);
      return reply
        .header('content-type', contentType)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(stream);
    } catch (error) {
      cleanup();
      throw error;
    }
  }

  app.get(
    '/api/tenant/database/servers',
    {
      config: superAdmin,
      schema: {
        tags,
        summary:
          'I server su cui possono stare i database dei tenant (control, TENANT_DATABASE_SERVERS; embedded)',
        response: { 200: envelopeOf(z.array(z.string())) },
      },
    },
    async () => ok(deps.tenancy?.servers() ?? []),
  );

  app.get(
    '/api/tenant/:id/database/backup',
    {
      config: superAdmin,
      schema: {
        tags,
        summary:
          'Backup del database del tenant, da scaricare (pg_dump -Fc, o i file del database incorporato, preceduti da un manifest)',
        params,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return download(reply, `tenant-${id}-${day()}.backup`, 'application/octet-stream', (file) =>
        operations().backup(id, file),
      );
    },
  );

  app.post(
    '/api/tenant/:id/database/export',
    {
      config: superAdmin,
      schema: {
        tags,
        summary:
          'Esportazione completa del tenant, da scaricare: zip con un CSV per tabella (Excel), LEGGIMI.txt, manifest.json e il backup',
        params,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return download(reply, `tenant-${id}-${day()}.zip`, 'application/zip', (file) =>
        operations().exportTenant(id, file),
      );
    },
  );

  app.post(
    '/api/tenant/:id/database/move',
    {
      config: superAdmin,
      schema: {
        tags,
        summary:
          'Sposta il database del tenant su un altro server (PostgreSQL): in sola lettura durante la copia, annullato se qualcosa non riesce',
        params,
        body: z.object({ server: z.string().min(1).max(40) }),
        response: { 200: envelopeOf(placementSchema) },
      },
    },
    async (request) => {
      const placement = await operations().move(request.params.id, request.body.server);
      return ok(
        { server: placement.server, database: placement.database, state: placement.state },
        tenancyMessages.moved(placement.server),
      );
    },
  );

  app.post(
    '/api/tenant/:id/database/delete',
    {
      config: superAdmin,
      schema: {
        tags,
        summary:
          'Elimina il tenant con tutti i suoi dati: prima un’esportazione completa, conservata sul server (data.exportFile), poi il database, la voce della directory e le iscrizioni. Conferma: name = il nome del tenant',
        params,
        body: z.object({ name: z.string().max(200) }),
        response: { 200: envelopeOf(z.object({ exportFile: z.string() })) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const name = await tenantNameOf(deps.control, id);
      if (name === null) throw new HttpError(404, tenancyMessages.tenantNotFound(id));
      if (request.body.name.trim() !== name)
        throw new HttpError(400, tenancyMessages.deleteConfirmName, {
          errors: [`name: ${tenancyMessages.deleteConfirmName}`],
        });
      await mkdir(deps.exportsDir, { recursive: true, mode: 0o700 });
      const exportFile = path.join(
        deps.exportsDir,
        `tenant-${id}-${deps.clock().toISOString().replace(/[:.]/g, '-')}.zip`,
      );
      await operations().exportTenant(id, exportFile);
      await operations().deleteTenant(id, { exportFile });
      return ok({ exportFile }, tenancyMessages.deletedWithExport(name));
    },
  );

  // The upload: the raw body, streamed to a temporary file (no JSON, no size limit of the app's parsers).
  void app.register(async (child) => {
    child.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    child.withTypeProvider<ZodTypeProvider>().post(
      '/api/tenant/:id/database/restore',
      {
        config: superAdmin,
        schema: {
          tags,
          summary:
            'Ripristina il database del tenant da un suo backup (corpo application/octet-stream): prima in un database nuovo, poi lo scambio; gli altri tenant non cambiano',
          params,
          response: { 200: envelopeOf(placementSchema) },
        },
      },
      async (request) => {
        const body = request.body as Readable | undefined;
        if (!body || typeof (body as { pipe?: unknown }).pipe !== 'function')
          throw new HttpError(400, tenancyMessages.uploadRequired);
        const dir = await mkdtemp(path.join(os.tmpdir(), 'rinnova-upload-'));
        try {
          const file = path.join(dir, 'upload.backup');
          let size = 0;
          const limit = new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              size += chunk.length;
              if (size > MAX_UPLOAD_BYTES) callback(new HttpError(413, tenancyMessages.notABackup));
              else callback(null, chunk);
            },
          });
          await pipeline(body, limit, createWriteStream(file, { mode: 0o600 }));
          if (size === 0) throw new HttpError(400, tenancyMessages.uploadRequired);
          const placement = await operations().restore(request.params.id, file);
          return ok(
            { server: placement.server, database: placement.database, state: placement.state },
            tenancyMessages.restored,
          );
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    );
  });
}
