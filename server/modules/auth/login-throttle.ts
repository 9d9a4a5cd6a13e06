/**
 * Counts failed sign-ins per key (the auth service uses (e-mail, IP) and IP); after `maxFailures`
 * within the lock window the key is locked until the window ends (429 with Retry-After). The
 * counts are shared counters (lib/shared-counters.ts): on PostgreSQL every app instance sees the
 * same ones, so a second instance is no second chance.
 */
import { createHash } from 'node:crypto';
import type { SharedCounters } from '../../lib/shared-counters';

/**
 * The counter's key: a digest of (e-mail, address) or of the address, so the counters' table (in
 * the control database on PostgreSQL) holds no e-mail address or client address in clear.
 */
const counterKey = (key: string) => `sign-in:${createHash('sha256').update(key).digest('base64url')}`;

export class LoginThrottle {
  constructor(
    private readonly counters: SharedCounters,
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until the first locked key frees up, or 0 when none of the keys is locked. */
  async retryAfterSeconds(keys: readonly string[]): Promise<number> {
    const found = await this.counters.peek(keys.map(counterKey));
    let waitMs = 0;
    for (const key of keys) {
      const state = found.get(counterKey(key));
      if (state && state.count >= this.limitFor(key)) waitMs = Math.max(waitMs, state.ttlMs);
    }
    return waitMs === 0 ? 0 : Math.max(1, Math.ceil(waitMs / 1000));
  }

  async recordFailure(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.counters.hit(counterKey(key), this.windowMs);
  }

  /** A successful sign-in clears its (e-mail, IP) count (not the IP's: one good account does not vouch for the rest). */
  async clear(key: string): Promise<void> {
    await this.counters.clear(counterKey(key));
  }

  /** An office behind one NAT shares an IP, so IPs get more room than a single e-mail. */
  private limitFor(key: string): number {
    return key.startsWith('ip:') ? this.maxFailures * 4 : this.maxFailures;
  }
}
