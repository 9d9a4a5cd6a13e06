import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type {
  Actor,
  GlobalUnitOfWork,
  UnitDatabase,
  UnitOfWork,
  UnitOfWorkRunner,
} from '../unit-of-work/unit-of-work';
import { tenantOf } from './request-context';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who acts, built once at the edge from what the access plugins verified: the signed-in user
     * (with role and e-mail, the same on every path), or the tenant API key; null on routes that
     * take neither (public and app-key routes build their own: a payment token, a provider).
     */
    readonly actor: Actor | null;
    /**
     * Runs `work` as one unit of work in the request's tenant (`X-Tenant-Id`, or the API key's),
     * as the request's actor, at the unit's clock. Routes never open a transaction of their own.
     */
    unitOfWork<T>(work: (w: UnitOfWork) => Promise<T>, database?: UnitDatabase): Promise<T>;
    /**
     * The same for writes of global data (geography, tenants, identities). A route that takes no
     * caller (the contact form, sign-in) names who acts.
     */
    globalUnitOfWork<T>(work: (w: GlobalUnitOfWork) => Promise<T>, actor?: Actor): Promise<T>;
    /**
     * Work to start once the answer has been sent (a reset e-mail: the answer takes the same time
     * whether the account exists or not). A failure is logged; it never changes the answer.
     */
    afterResponse(work: () => Promise<unknown>): void;
  }
  interface FastifyInstance {
    /** Settles when every `afterResponse` work started so far has ended (tests; shutdown). */
    backgroundIdle(): Promise<void>;
  }
}

const AFTER = Symbol('afterResponse');

/** The actor of a request that must have one (a signed-in user or a tenant key). */
export function actorOf(request: { actor: Actor | null }): Actor {
  if (!request.actor) throw new Error('call context: a route without a caller asked for its actor');
  return request.actor;
}

/**
 * The request's call context (Kill Bill's call context, built in the resource): `request.actor`
 * and `request.unitOfWork(work)`, so no route restates who acts or which tenant a unit runs in.
 */
export const callContextPlugin = fp<{ uow: UnitOfWorkRunner }>(
  (app, { uow }, done) => {
    app.decorateRequest('actor', {
      getter(): Actor | null {
        const auth = this.auth;
        if (auth) return { kind: 'user', userId: auth.userId, roleId: auth.roleId, email: auth.email };
        if (this.apiKey) return { kind: 'apiKey', keyId: this.apiKey.id };
        return null;
      },
    });
    app.decorateRequest('unitOfWork', function <
      T,
    >(this: FastifyRequest, work: (w: UnitOfWork) => Promise<T>, database?: UnitDatabase) {
      return uow.run(
        { tenantId: tenantOf(this), actor: actorOf(this), ...(database ? { database } : {}) },
        work,
      );
    });
    app.decorateRequest('globalUnitOfWork', function <
      T,
    >(this: FastifyRequest, work: (w: GlobalUnitOfWork) => Promise<T>, actor?: Actor) {
      return uow.runGlobal(actor ?? actorOf(this), work);
    });
    const running = new Set<Promise<unknown>>();
    app.decorate('backgroundIdle', async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    });
    // Each work is counted as running from the moment it is asked for, and started once the
    // answer has been sent (onResponse), so `backgroundIdle` also waits for work not yet started.
    app.decorateRequest('afterResponse', function (this: FastifyRequest, work: () => Promise<unknown>) {
      const self = this as FastifyRequest & { [AFTER]?: (() => void)[] };
      let start!: () => void;
      const started = new Promise<void>((resolve) => (start = resolve));
      const tracked = started
        .then(work)
        .catch((error: unknown) => this.log.error({ err: error }, 'lavoro dopo la risposta fallito'))
        .finally(() => running.delete(tracked));
      running.add(tracked);
      (self[AFTER] ??= []).push(start);
    });
    const release = async (request: FastifyRequest) => {
      const self = request as FastifyRequest & { [AFTER]?: (() => void)[] };
      for (const start of self[AFTER] ?? []) start();
      self[AFTER] = [];
    };
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);
    app.addHook('onClose', async () => app.backgroundIdle());
    done();
  },
  { name: 'call-context' },
);
