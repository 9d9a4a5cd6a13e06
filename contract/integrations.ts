/**
 * Integrations (issue 15): what the SPA and the server share about tenant API keys, the
 * entitlement API and outbound webhooks.
 */
import { z } from 'zod';
import { integrationMessages as m } from './messages';

export const API_KEY_SCOPES = ['read', 'write', 'entitlements'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const apiKeyScopeLabels: Record<ApiKeyScope, string> = {
  read: 'Lettura',
  write: 'Scrittura',
  entitlements: 'Diritti di accesso',
};

/** A tenant key: `rnv_live_` or `rnv_test_` then 43 base64url characters (256 random bits). */
export const TENANT_KEY_PATTERN = /^rnv_(live|test)_[A-Za-z0-9_-]{32,128}$/;
export function looksLikeTenantKey(value: string | undefined): value is string {
  return value !== undefined && (value.startsWith('rnv_live_') || value.startsWith('rnv_test_'));
}

export const WEBHOOK_EVENTS = [
  'subscription.created',
  'subscription.activated',
  'subscription.renewal_failed',
  'subscription.canceled',
  'subscription.expired',
  'subscription.plan_changed',
  'subscription.paused',
  'subscription.resumed',
  'payment.succeeded',
  'bank_transfer.approved',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export const webhookEventLabels: Record<WebhookEventType, string> = {
  'subscription.created': 'Sottoscrizione creata',
  'subscription.activated': 'Sottoscrizione attivata',
  'subscription.renewal_failed': 'Rinnovo non riuscito',
  'subscription.canceled': 'Sottoscrizione cancellata',
  'subscription.expired': 'Sottoscrizione scaduta',
  'subscription.plan_changed': 'Piano cambiato',
  'subscription.paused': 'Incasso sospeso',
  'subscription.resumed': 'Incasso ripreso',
  'payment.succeeded': 'Pagamento riuscito',
  'bank_transfer.approved': 'Bonifico approvato',
};

/** The header of every delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of `${t}.${body}`>`. */
export const SIGNATURE_HEADER = 'Rinnova-Signature';

/** A feature's machine key from its name: accents folded, a–z 0–9 joined by '_', at most 60. */
export function featureKeyOf(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 60)
    .replace(/^_+|_+$/g, '');
  return slug || 'feature';
}
export const FEATURE_KEY_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,59}$/;
export const featureKeySchema = z
  .string()
  .trim()
  .regex(FEATURE_KEY_PATTERN, { message: m.featureKeyInvalid });

export interface ApiKeyItem {
  id: number;
  name: string;
  mode: 'live' | 'test';
  /** `rnv_live_…abcd`: the prefix and the last four characters. */
  hint: string;
  scopes: ApiKeyScope[];
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  /** 'active' | 'expired' | 'revoked' at the server's time. */
  state: 'active' | 'expired' | 'revoked';
  rotatedFromId: number | null;
}

export interface ApiKeyCreated extends ApiKeyItem {
  /** The whole secret: in this answer only. */
  secret: string;
}

export interface ApiRequestLogItem {
  id: number;
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  ip: string | null;
}

export interface ApiSettings {
  perKeyPerMinute: number;
  perTenantPerMinute: number;
}

export interface WebhookEndpointItem {
  id: number;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  secretHint: string;
  isEnabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  consecutiveFailures: number;
  createdAt: string;
}

export interface WebhookEndpointCreated extends WebhookEndpointItem {
  secret: string;
}

export interface WebhookDeliveryItem {
  id: number;
  endpointId: number;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  createdAt: string;
  attemptList: WebhookAttemptItem[];
}

export interface WebhookAttemptItem {
  id: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  succeeded: boolean;
  manual: boolean;
}

export interface Entitlement {
  key: string;
  name: string;
  planId: number;
  planName: string;
  subscriptionId: number;
  /** The subscription's next billing date: the entitlement lasts at least until then. */
  until: string;
  /**
   * Issue 29: a payment of the subscription is overdue and the customer is within the tenant's
   * grace (access kept until `graceEndsOn`, YYYY-MM-DD Europe/Rome, that day included).
   */
  pastDue: boolean;
  graceEndsOn: string | null;
  /**
   * Issue 30: collection of the subscription is paused now (no payment due until `pausedUntil`,
   * ISO date-time, the next billing date). An entitlement is answered while paused only when the
   * pause keeps them ('mantenuti'); a pause that suspends them ('sospesi') answers none.
   */
  paused: boolean;
  pausedUntil: string | null;
  /**
   * Issue 30 ('Prove'): the subscription is in its free trial (usable, nothing paid yet) until
   * `trialEndsAt` (ISO instant), when its first payment is due.
   */
  trial: boolean;
  trialEndsAt: string | null;
}
