/**
 * Rotating ENCRYPTION_KEY on a running database, as an operator would: values stored in the
 * first form (v1, before row binding) keep working; a new key with the old one in
 * ENCRYPTION_KEY_PREVIOUS reads everything; the `secrets-rewrap` job (on /hangfire, started by a
 * SuperAdmin) seals every secret again with the new key, bound to its row; then the old key can
 * go. Observed through real calls: signed webhook deliveries to a loopback receiver.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  WebhookAttemptItem,
  WebhookDeliveryItem,
  WebhookEndpointCreated,
} from '../../../contract/integrations';
import type { Tenant } from '../../../contract/schemas/tenant';
import { paymentProviders, tenants, webhookEndpoints } from '../../../server/db/schema';
import { createSecretBox } from '../../../server/lib/secret-box';
import { SECRET_REWRAP_JOB, SECRET_SLOTS } from '../../../server/lib/secret-rewrap';
import { WEBHOOK_JOB } from '../../../server/modules/integrations/webhook-transport';
import { createSubscription, planId, userId } from '../billing/helpers';
import { dataOf } from '../helpers/entity-checks';
import { sealV1 } from '../helpers/secrets';
import {
  client,
  createTestContext,
  DEMO,
  JWT_SECRET,
  type ApiClient,
  type TestContext,
} from '../helpers/test-app';

const NEW_KEY = 'the-new-encryption-key-0123456789abcdef';
let ctx: TestContext;
let demo: number;
let receiver: http.Server;
let receiverUrl: string;
const received: { signature: string; body: string }[] = [];

function verify(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const v1 = Buffer.from(parts.v1 ?? '', 'hex');
  return v1.length === 32 && timingSafeEqual(v1, expected);
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ signature: String(req.headers['rinnova-signature']), body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  ctx = await createTestContext();
  demo = await ctx.tenantId('Demo Srl');
});
afterAll(async () => {
  await ctx?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function adminOf(app: FastifyInstance): Promise<ApiClient> {
  const token = await ctx.login(DEMO.admin, DEMO.password);
  return client(app, { authorization: `Bearer ${token}`, 'x-tenant-id': String(demo) });
}

/** Every stored secret, with its slot and row. */
async function storedSecrets() {
  const all: { slot: string; id: number; value: string }[] = [];
  for (const spec of SECRET_SLOTS) {
    const rows = await ctx.db
      .select({ id: spec.id, value: spec.column })
      .from(spec.table)
      .where(isNotNull(spec.column));
    for (const r of rows) all.push({ slot: spec.slot, id: r.id as number, value: r.value as string });
  }
  return all;
}

describe('rotating ENCRYPTION_KEY', () => {
  let endpoint: WebhookEndpointCreated;
  let deliveryId: number;
  let legacyProvider: number;

  it('values in the first form (v1) keep working', async () => {
    const admin = await ctx.as('admin', 'Demo Srl');
    endpoint = dataOf(
      await admin.post<WebhookEndpointCreated>('/api/webhook/create', {
        url: receiverUrl,
        events: ['subscription.created'],
      }),
    );
    // As an endpoint, a provider and a PEC password stored before row binding sit in the database.
    await ctx.db
      .update(webhookEndpoints)
      .set({ secretEncrypted: sealV1(JWT_SECRET, 'whsec_legacy') })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const [provider] = await ctx.db
      .insert(paymentProviders)
      .values({
        tenantId: demo,
        name: 'PayPal (vecchio formato)',
        apiUrl: 'https://api-m.sandbox.paypal.com',
        apiKey: 'legacy-client',
        apiSecretEncrypted: sealV1(JWT_SECRET, 'legacy-paypal-secret'),
        isActive: false,
      })
      .returning({ id: paymentProviders.id });
    legacyProvider = provider!.id;
    await ctx.db
      .update(tenants)
      .set({ pecSmtpPasswordEncrypted: sealV1(JWT_SECRET, 'legacy-pec-password') })
      .where(eq(tenants.id, demo));

    await createSubscription(admin, {
      userId: await userId(ctx, 'mario.rossi@example.com'),
      planId: await planId(ctx, 'Demo Srl', 'Basic'),
    });
    await ctx.app.jobs!.drain({ names: [WEBHOOK_JOB] });
    expect(received).toHaveLength(1);
    expect(verify(received[0]!.signature, received[0]!.body, 'whsec_legacy')).toBe(true);
    const [delivery] = dataOf(
      await admin.get<WebhookDeliveryItem[]>(`/api/webhook/${endpoint.id}/deliveries`),
    );
    deliveryId = delivery!.id;
    // The tenant screen still says a PEC password is stored.
    expect(dataOf(await admin.get<Tenant>(`/api/tenant/GetById/${demo}`)).pecSmtpPassword).not.toBeNull();
  });

  it('a new key alone cannot read them; with the old one as ENCRYPTION_KEY_PREVIOUS everything reads', async () => {
    const newOnly = await ctx.buildAnotherApp({ ENCRYPTION_KEY: NEW_KEY });
    const unreadable = await (
      await adminOf(newOnly)
    ).post<WebhookAttemptItem>(`/api/webhook/deliveries/${deliveryId}/resend`);
    expect(dataOf(unreadable)).toMatchObject({
      succeeded: false,
      error: expect.stringContaining('illeggibile'),
    });
    expect(received).toHaveLength(1);

    const rotated = await ctx.buildAnotherApp({
      ENCRYPTION_KEY: NEW_KEY,
      ENCRYPTION_KEY_PREVIOUS: JWT_SECRET,
    });
    const resent = await (
      await adminOf(rotated)
    ).post<WebhookAttemptItem>(`/api/webhook/deliveries/${deliveryId}/resend`);
    expect(dataOf(resent)).toMatchObject({ succeeded: true });
    expect(verify(received[1]!.signature, received[1]!.body, 'whsec_legacy')).toBe(true);
  });

  it('the secrets-rewrap job, started from /hangfire, seals every secret with the new key, bound to its row', async () => {
    const rotated = await ctx.buildAnotherApp({
      ENCRYPTION_KEY: NEW_KEY,
      ENCRYPTION_KEY_PREVIOUS: JWT_SECRET,
    });
    const box = createSecretBox({ current: NEW_KEY, previous: JWT_SECRET });
    // A value no configured key opens is reported and left alone.
    await ctx.db
      .update(paymentProviders)
      .set({ webhookSecretEncrypted: sealV1('a-key-nobody-has-any-more-0123456789', 'lost') })
      .where(eq(paymentProviders.id, legacyProvider));
    const before = await storedSecrets();
    expect(before.length).toBeGreaterThanOrEqual(5);
    expect(before.some((s) => s.value.startsWith('v1.'))).toBe(true);

    const superadmin = client(rotated, {
      authorization: `Bearer ${await ctx.login(DEMO.superadmin, DEMO.password)}`,
    });
    const recurring = dataOf(
      await superadmin.get<{ key: string; label: string }[]>('/api/hangfire/recurring'),
    );
    expect(recurring.find((r) => r.key === SECRET_REWRAP_JOB)?.label).toMatch(/Ricifratura dei segreti/);
    expect((await superadmin.post(`/api/hangfire/trigger/${SECRET_REWRAP_JOB}`)).status).toBe(200);
    const [run] = await rotated.jobs!.drain({ names: [SECRET_REWRAP_JOB] });
    expect(run).toMatchObject({
      outcome: 'succeeded',
      output: { rewritten: before.length - 1, unreadable: 1, remaining: 1, keyId: box.keyId },
    });
    // The output and the log name rows, never a secret.
    expect(JSON.stringify(run)).not.toMatch(/legacy|whsec_/);

    const after = await storedSecrets();
    for (const s of after) {
      if (s.slot === 'payment_providers.webhook_secret_encrypted' && s.id === legacyProvider) continue;
      expect(s.value, `${s.slot}#${s.id}`).toMatch(new RegExp(`^v2\\.${box.keyId}\\.`));
      expect(box.open(s.value, s.slot as never, s.id), `${s.slot}#${s.id}`).not.toBeNull();
    }
    const only = createSecretBox(NEW_KEY);
    const value = (slot: string, id: number) => after.find((s) => s.slot === slot && s.id === id)!.value;
    expect(
      only.open(
        value('payment_providers.api_secret_encrypted', legacyProvider),
        'payment_providers.api_secret_encrypted',
        legacyProvider,
      ),
    ).toBe('legacy-paypal-secret');
    expect(
      only.open(
        value('tenants.pec_smtp_password_encrypted', demo),
        'tenants.pec_smtp_password_encrypted',
        demo,
      ),
    ).toBe('legacy-pec-password');
    expect(
      only.open(
        value('webhook_endpoints.secret_encrypted', endpoint.id),
        'webhook_endpoints.secret_encrypted',
        endpoint.id,
      ),
    ).toBe('whsec_legacy');

    // Its Admin types the lost secret again (here: cleared); the next run has nothing left.
    await ctx.db
      .update(paymentProviders)
      .set({ webhookSecretEncrypted: null })
      .where(eq(paymentProviders.id, legacyProvider));
    const [again] = await rotated.jobs!.runJobNow(SECRET_REWRAP_JOB);
    expect(again?.output).toMatchObject({ rewritten: 0, unreadable: 0, remaining: 0 });
  });

  it('then the old key can go: an app with the new key alone signs with the same secret', async () => {
    const newOnly = await ctx.buildAnotherApp({ ENCRYPTION_KEY: NEW_KEY });
    const resent = await (
      await adminOf(newOnly)
    ).post<WebhookAttemptItem>(`/api/webhook/deliveries/${deliveryId}/resend`);
    expect(dataOf(resent)).toMatchObject({ succeeded: true });
    const last = received[received.length - 1]!;
    expect(verify(last.signature, last.body, 'whsec_legacy')).toBe(true);
  });
});
