/**
 * The outbox sweep over the tenants' databases (issue 25) counts every row it sent, whatever order
 * its workers finish in. A worker used to add its count to the total read before its own await
 * (`sent += await …`), so a tenant whose sweep ended last with nothing to send wiped out what
 * another tenant's sweep had just sent. Here the second tenant's sweep is held until the first
 * tenant's row has gone out, which is the order that lost the count.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { outbox } from '../../server/db/schema';
import type { Database } from '../../server/db/client';
import type { MailMessage } from '../../server/mail/mailer';
import { createOutboxDispatcher } from '../../server/unit-of-work/outbox';
import { openTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';

let control: TestDatabase;
let tenant: TestDatabase;
beforeAll(async () => {
  [control, tenant] = await Promise.all([openTestDatabase(), openTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([control.dispose(), tenant.dispose()]);
});

/** `db` whose queries start only once `gate` has resolved (any query builder awaited through it). */
function heldUntil(db: Database, gate: Promise<unknown>): Database {
  const wrap = (target: object): unknown =>
    new Proxy(target, {
      get(object, key, receiver) {
        const value: unknown = Reflect.get(object, key, receiver);
        if (key === 'then' && typeof value === 'function')
          return (resolve: (v: unknown) => unknown, reject: (e: unknown) => unknown) =>
            gate.then(() => (value as (...a: unknown[]) => unknown).call(object, resolve, reject));
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(object, args);
          return result !== null && typeof result === 'object' ? wrap(result) : result;
        };
      },
    });
  return wrap(db) as Database;
}

it('counts a tenant’s sent row when another tenant’s empty sweep ends after it', async () => {
  const sent: string[] = [];
  let firstSent: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (firstSent = resolve));
  const mailer = {
    send: async (m: MailMessage) => {
      sent.push(m.subject);
      firstSent();
    },
    close: () => undefined,
  };
  const dispatcher = createOutboxDispatcher({
    db: control.handle.db,
    mailer,
    log: { warn: () => undefined } as never,
    clock: () => new Date(),
    // Tenant 1: a database with a row to send. Tenant 2: nothing to send, held until tenant 1's row is out.
    tenantDatabases: async () => [tenant.handle.db, heldUntil(control.handle.db, gate)],
  });
  // Whatever the seeds left pending goes first, without the hold.
  const drain = createOutboxDispatcher({
    db: control.handle.db,
    mailer: { send: async () => undefined, close: () => undefined },
    log: { warn: () => undefined } as never,
    clock: () => new Date(),
    tenantDatabases: async () => [tenant.handle.db],
  });
  await drain.dispatchPending();
  await tenant.handle.db.insert(outbox).values({
    tenantId: null,
    kind: 'email',
    payload: { to: 'cliente@example.com', subject: 'Dopo il crash', text: 'x', html: 'x' },
  });
  expect(await dispatcher.dispatchPending()).toBe(1);
  expect(sent).toEqual(['Dopo il crash']);
});
