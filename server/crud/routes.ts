import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages, serverMessages } from '../../contract/messages';
import { NUMBER_MESSAGE, optionalId, requiredId } from '../../contract/schemas/common';
import { HttpError } from '../lib/http-error';
import type { Database } from '../db/client';
import { envelopeOf, ok } from '../lib/envelope';
import { callerOf } from '../plugins/request-context';
import type { GlobalUnitOfWork, UnitOfWorkRunner } from '../unit-of-work/unit-of-work';
import type { Caller, EntityDefinition } from './entity';
import { exportFileName, exportQuerySchema, sendExport } from './export';
import { cursorListQuerySchema, idParamsSchema, selectQuerySchema } from './list-query';
import { tenantNameOf } from './tenant-name';
import { createCrudRepository } from './repository';

const selectResultSchema = z.object({
  options: z.array(z.object({ value: z.number(), label: z.string() })),
  totalCount: z.number(),
  totalCountCapped: z.literal(true).optional(),
});

/**
 * The generic per-entity API (product spec §7): getAll, getAllForSelect, GetById/{id}, Create,
 * Update, Delete/{id} under /api/{name}. Roles come from the definition; tenant-scoped entities
 * require X-Tenant-Id. Paths match case-insensitively (router option).
 */
export interface CrudDeps {
  db: Database;
  uow: UnitOfWorkRunner;
  /** The tenant's database (db/tenancy); absent: every tenant on `db`. */
  connectionFor?: (tenantId: number) => Database;
}

export function registerCrudRoutes<TTable extends PgTable, TItem, TInputSchema extends z.ZodObject>(
  fastify: FastifyInstance,
  { db, uow, connectionFor }: CrudDeps,
  def: EntityDefinition<TTable, TItem, TInputSchema>,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // A tenant-scoped entity at home in the tenant's database reads and writes there (one
  // repository per tenant database, made on first use); the others use the control database.
  const inTenant = def.scope.kind === 'tenant' && def.home !== 'control' && connectionFor !== undefined;
  const controlRepo = createCrudRepository(db, def);
  const tenantRepos = new WeakMap<
    Database,
    ReturnType<typeof createCrudRepository<TTable, TItem, TInputSchema>>
  >();
  const repoOf = (c: Caller) => {
    if (!inTenant || c.tenantId === null || !connectionFor) return controlRepo;
    const tenantDb = connectionFor(c.tenantId);
    let found = tenantRepos.get(tenantDb);
    if (!found) tenantRepos.set(tenantDb, (found = createCrudRepository(tenantDb, def)));
    return found;
  };
  /** Every write is one unit of work: the tenant's for tenant-scoped entities, else global. */
  const write = <T>(request: FastifyRequest, work: (w: GlobalUnitOfWork) => Promise<T>): Promise<T> =>
    def.scope.kind === 'tenant'
      ? request.unitOfWork(work, def.home ?? 'tenant')
      : request.globalUnitOfWork(work);
  const base = `/api/${def.name}`;
  const tenant = def.scope.kind === 'tenant' ? ('required' as const) : ('optional' as const);
  const access = (roles: EntityDefinition<TTable, TItem, TInputSchema>['roles']['read']) => ({
    access: 'user' as const,
    tenant,
    ...(roles ? { roles } : {}),
  });
  const caller = (request: Parameters<typeof callerOf>[0]): Caller => {
    const auth = callerOf(request);
    return { userId: auth.userId, roleId: auth.roleId, tenantId: request.tenantId };
  };
  const shown = (c: Caller, item: TItem): TItem => (def.present ? def.present(c, item) : item);
  const tags = [def.name];
  const itemEnvelope = envelopeOf(def.item);

  app.get(
    `${base}/getAll`,
    {
      config: access(def.roles.read),
      schema: {
        tags,
        description:
          'Paging a pagine (page) o a cursore (afterId = nextAfterId della risposta precedente: le righe dopo quella nello stesso ordine, senza OFFSET; nextAfterId è null sull’ultima pagina)',
        querystring: cursorListQuerySchema,
        response: {
          200: envelopeOf(
            z.object({
              items: z.array(def.item),
              totalCount: z.number(),
              totalCountCapped: z.literal(true).optional(),
              nextAfterId: z.number().nullable(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const c = caller(request);
      const page = await repoOf(c).list(c, request.query);
      return ok({ ...page, items: page.items.map((item) => shown(c, item)) });
    },
  );

  const exportSpec = def.export;
  if (exportSpec) {
    app.get(
      `${base}/export`,
      {
        config: access(def.roles.read),
        schema: {
          tags,
          summary:
            'La lista intera (tutte le pagine) con i suoi searchTerm, filters e sort, come CSV (;, UTF-8 con BOM, date gg/mm/aaaa, decimali con la virgola) o XLSX',
          querystring: exportQuerySchema,
        },
      },
      async (request, reply) => {
        const c = caller(request);
        const { format, ...query } = request.query;
        const all = repoOf(c).batches(c, query);
        const batches = (size: number) => presentedBatches(all(size), (item) => shown(c, item));
        const tenantName =
          def.scope.kind === 'tenant' && c.tenantId !== null ? await tenantNameOf(db, c.tenantId) : null;
        const fileName = exportFileName(exportSpec.fileName, tenantName, uow.clock(), format);
        return sendExport(reply, { spec: exportSpec, format, fileName, batches });
      },
    );
  }

  app.get(
    `${base}/getAllForSelect`,
    {
      config: access(def.roles.read),
      schema: { tags, querystring: selectQuerySchema, response: { 200: envelopeOf(selectResultSchema) } },
    },
    async (request) => {
      const c = caller(request);
      return ok(await repoOf(c).select(c, request.query));
    },
  );

  app.get(
    `${base}/GetById/:id`,
    {
      config: access(def.roles.read),
      schema: { tags, params: idParamsSchema, response: { 200: itemEnvelope } },
    },
    async (request) => {
      const c = caller(request);
      const item = shown(c, await repoOf(c).get(c, request.params.id));
      return ok(def.detail ? await def.detail(c, item) : item);
    },
  );

  app.post(
    `${base}/Create`,
    {
      config: access(def.roles.create),
      schema: { tags, body: def.input, response: { 200: itemEnvelope } },
      // A Create never targets an existing row: an `id` in its body is dropped before validation,
      // so rules that depend on "new vs existing" (e.g. the provider secret) see a new row. It must
      // still be an id (absent, null, 0 or a positive integer in range): `true` or `[7]` is a 400.
      preValidation: (request, _reply, done) => {
        const body = request.body;
        if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
          const sent = (body as { id?: unknown }).id;
          if (!optionalId.safeParse(sent).success) {
            done(new HttpError(400, serverMessages.validation, { errors: [`id: ${NUMBER_MESSAGE}`] }));
            return;
          }
          delete (body as { id?: unknown }).id;
        }
        done();
      },
    },
    // The type provider cannot resolve a generic schema's output; validation has produced it.
    async (request) => {
      const c = caller(request);
      const id = await write(request, (w) => repoOf(c).create(w, c, request.body as z.output<TInputSchema>));
      await def.afterCommit?.(id, 'create', c);
      return ok(shown(c, await repoOf(c).get(c, id)), messages.http.created);
    },
  );

  // safeExtend keeps the refinements of the input (e.g. the payment provider's secret rule).
  const updateSchema = def.input.safeExtend({ id: requiredId });
  app.put(
    `${base}/Update`,
    {
      config: access(def.roles.update),
      schema: { tags, body: updateSchema, response: { 200: itemEnvelope } },
    },
    async (request) => {
      const body = request.body as z.output<TInputSchema> & { id: number };
      const c = caller(request);
      await write(request, (w) => repoOf(c).update(w, c, body.id, body));
      await def.afterCommit?.(body.id, 'update', c);
      return ok(shown(c, await repoOf(c).get(c, body.id)), messages.http.updated);
    },
  );

  app.delete(
    `${base}/Delete/:id`,
    {
      config: access(def.roles.remove),
      schema: { tags, params: idParamsSchema, response: { 200: envelopeOf(z.object({ id: z.number() })) } },
    },
    async (request) => {
      const c = caller(request);
      await write(request, (w) => repoOf(c).remove(w, c, request.params.id));
      return ok({ id: request.params.id }, 'Elemento eliminato.');
    },
  );
}

async function* presentedBatches<T>(batches: AsyncIterable<T[]>, shown: (item: T) => T): AsyncIterable<T[]> {
  for await (const batch of batches) yield batch.map(shown);
}
