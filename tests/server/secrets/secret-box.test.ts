/**
 * Secrets at rest: sealed to their table, column and row, with the id of the key that sealed
 * them; the previous key still read during a rotation; the first form (v1) still read.
 */
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../../server/lib/secret-box';
import { sealV1 } from '../helpers/secrets';

const OLD = 'old-key-material-of-at-least-32-characters';
const NEW = 'new-key-material-of-at-least-32-characters';

describe('the secret box', () => {
  const box = createSecretBox(OLD);

  it('seals to table, column and row: a value moved elsewhere does not open', () => {
    const stored = box.seal('sk_live_x', 'payment_providers.api_secret_encrypted', 7);
    expect(stored).toMatch(new RegExp(`^v2\\.${box.keyId}\\.`));
    expect(stored).not.toContain('sk_live_x');
    expect(box.open(stored, 'payment_providers.api_secret_encrypted', 7)).toBe('sk_live_x');
    expect(box.open(stored, 'payment_providers.api_secret_encrypted', 8)).toBeNull();
    expect(box.open(stored, 'payment_providers.webhook_secret_encrypted', 7)).toBeNull();
    expect(box.open(stored, 'tenants.pec_smtp_password_encrypted', 7)).toBeNull();
    // Another key id written in: the associated data no longer matches.
    const other = createSecretBox({ current: NEW, previous: OLD });
    expect(
      other.open(
        stored.replace(`v2.${box.keyId}.`, `v2.${other.keyId}.`),
        'payment_providers.api_secret_encrypted',
        7,
      ),
    ).toBeNull();
    // Altered: null.
    const parts = stored.split('.');
    parts[4] = Buffer.from('altered').toString('base64url');
    expect(box.open(parts.join('.'), 'payment_providers.api_secret_encrypted', 7)).toBeNull();
    expect(() => box.seal('x', 'payment_providers.api_secret_encrypted', 0)).toThrow();
  });

  it('names its key by a digest (never the key) and reads the previous key during a rotation', () => {
    const rotated = createSecretBox({ current: NEW, previous: OLD });
    expect(rotated.keyId).not.toBe(box.keyId);
    expect(rotated.previousKeyIds).toEqual([box.keyId]);
    expect(box.keyId).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(OLD).not.toContain(box.keyId);
    const sealedOld = box.seal('pec-password', 'tenants.pec_smtp_password_encrypted', 3);
    expect(rotated.open(sealedOld, 'tenants.pec_smtp_password_encrypted', 3)).toBe('pec-password');
    expect(rotated.isStale(sealedOld)).toBe(true);
    const sealedNew = rotated.seal('pec-password', 'tenants.pec_smtp_password_encrypted', 3);
    expect(rotated.isStale(sealedNew)).toBe(false);
    // Without the previous key the old value is unreadable; the new one still reads.
    const only = createSecretBox(NEW);
    expect(only.open(sealedOld, 'tenants.pec_smtp_password_encrypted', 3)).toBeNull();
    expect(only.open(sealedNew, 'tenants.pec_smtp_password_encrypted', 3)).toBe('pec-password');
  });

  it('reads the first form (v1) with the current or the previous key, and calls it stale', () => {
    const v1 = sealV1(OLD, 'legacy-secret');
    expect(box.open(v1, 'payment_providers.api_secret_encrypted', 1)).toBe('legacy-secret');
    expect(box.isStale(v1)).toBe(true);
    expect(
      createSecretBox({ current: NEW, previous: OLD }).open(v1, 'webhook_endpoints.secret_encrypted', 99),
    ).toBe('legacy-secret');
    expect(createSecretBox(NEW).open(v1, 'payment_providers.api_secret_encrypted', 1)).toBeNull();
    expect(box.open('garbage', 'payment_providers.api_secret_encrypted', 1)).toBeNull();
    expect(box.open('v2.x.y', 'payment_providers.api_secret_encrypted', 1)).toBeNull();
  });
});
