/**
 * Counts failed sign-ins per key (the auth service uses (e-mail, IP) and IP); after `maxFailures` within the lock window the
 * key is locked until the window ends (429 with Retry-After). In memory: a restart forgets, which
 * is acceptable for one process; a cluster would move this to the database or Redis.
 */
export class LoginThrottle {
  private readonly entries = new Map<string, { failures: number; windowEnds: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the first locked key frees up, or 0 when none of the keys is locked. */
  retryAfterSeconds(keys: readonly string[]): number {
    const now = this.now();
    let until = 0;
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (!entry || entry.windowEnds <= now) continue;
      if (entry.failures >= this.limitFor(key)) until = Math.max(until, entry.windowEnds);
    }
    return until === 0 ? 0 : Math.max(1, Math.ceil((until - now) / 1000));
  }

  recordFailure(keys: readonly string[]): void {
    const now = this.now();
    if (this.entries.size > 10_000) this.prune(now);
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (!entry || entry.windowEnds <= now)
        this.entries.set(key, { failures: 1, windowEnds: now + this.windowMs });
      else entry.failures += 1;
    }
  }

  /** A successful sign-in clears its (e-mail, IP) count (not the IP's: one good account does not vouch for the rest). */
  clear(key: string): void {
    this.entries.delete(key);
  }

  /** An office behind one NAT shares an IP, so IPs get more room than a single e-mail. */
  private limitFor(key: string): number {
    return key.startsWith('ip:') ? this.maxFailures * 4 : this.maxFailures;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) if (entry.windowEnds <= now) this.entries.delete(key);
  }
}
