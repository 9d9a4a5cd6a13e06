import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of third-party secrets (payment-provider API and signing secrets, the PEC
 * password, outbound webhook signing secrets): AES-256-GCM, a random 12-byte IV per value, the
 * 16-byte tag checked on decryption. Keys are derived with HKDF-SHA256 from key material
 * (ENCRYPTION_KEY, else the JWT secret) with a purpose label, so they are never the material itself.
 *
 * Stored form `v2.<keyId>.<iv>.<tag>.<ciphertext>` (base64url):
 * - bound to its place: the associated data is the key id, the table and column, and the row's
 *   id, so a value copied into another row or column (or given another key id) does not decrypt;
 * - `keyId` names the key material (a digest of it, never the key): ENCRYPTION_KEY can be rotated
 *   with the old material in ENCRYPTION_KEY_PREVIOUS, still read until the re-encryption job
 *   (secret-rewrap.ts) has rewritten every value with the current key.
 * The first form, `v1.<iv>.<tag>.<ciphertext>` (no binding, no key id), is still read with the
 * current or the previous material, and rewritten as v2 by that job.
 */
export type SecretSlot =
  | 'payment_providers.api_secret_encrypted'
  | 'payment_providers.webhook_secret_encrypted'
  | 'tenants.pec_smtp_password_encrypted'
  | 'webhook_endpoints.secret_encrypted'
  | 'users.totp_secret_encrypted'
  | 'users.totp_pending_encrypted';

export interface SecretBox {
  /** The id of the current key material, carried by every value sealed now. */
  readonly keyId: string;
  /** Ids of the other materials still read (ENCRYPTION_KEY_PREVIOUS). */
  readonly previousKeyIds: readonly string[];
  /** Encrypts `plain` for `slot` of row `rowId` with the current key. */
  seal(plain: string, slot: SecretSlot, rowId: number): string;
  /**
   * The secret, or null when it was written with a key no longer configured, for another row or
   * column, or altered.
   */
  open(stored: string, slot: SecretSlot, rowId: number): string | null;
  /** True when `stored` is not sealed with the current key (v1, or an older key): to rewrite. */
  isStale(stored: string): boolean;
}

export interface SecretBoxKeys {
  /** ENCRYPTION_KEY (else the JWT secret). */
  current: string;
  /** ENCRYPTION_KEY_PREVIOUS: the material before a rotation, read until every value is rewritten. */
  previous?: string | undefined;
}

const SALT = 'rinnova';
const INFO_V1 = 'rinnova payment-provider secrets v1';
const INFO_V2 = 'rinnova secrets v2';
const INFO_KEY_ID = 'rinnova secrets key id';

interface Material {
  id: string;
  v1: Buffer;
  v2: Buffer;
}

function material(secret: string): Material {
  const derive = (info: string, length: number) =>
    Buffer.from(hkdfSync('sha256', secret, SALT, info, length));
  return {
    id: derive(INFO_KEY_ID, 6).toString('base64url'),
    v1: derive(INFO_V1, 32),
    v2: derive(INFO_V2, 32),
  };
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

function decrypt(key: Buffer, iv: string, tag: string, data: string, aad?: Buffer): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

const associatedData = (keyId: string, slot: SecretSlot, rowId: number) =>
  Buffer.from(`rinnova.v2|${keyId}|${slot}|${rowId}`, 'utf8');

/** `keys` may be the current material alone (a string). */
export function createSecretBox(keys: SecretBoxKeys | string): SecretBox {
  const { current, previous } = typeof keys === 'string' ? { current: keys, previous: undefined } : keys;
  const now = material(current);
  const older = previous && previous !== current ? [material(previous)] : [];
  const byId = new Map([now, ...older].map((m) => [m.id, m]));
  return {
    keyId: now.id,
    previousKeyIds: older.map((m) => m.id),
    seal(plain, slot, rowId) {
      if (!Number.isSafeInteger(rowId) || rowId <= 0) throw new Error('secret-box: a row id is required');
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', now.v2, iv);
      cipher.setAAD(associatedData(now.id, slot, rowId));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v2', now.id, b64(iv), b64(cipher.getAuthTag()), b64(data)].join('.');
    },
    open(stored, slot, rowId) {
      const parts = stored.split('.');
      if (parts[0] === 'v2' && parts.length === 5) {
        const [, keyId = '', iv = '', tag = '', data = ''] = parts;
        const key = byId.get(keyId);
        if (!key || !iv || !tag) return null;
        return decrypt(key.v2, iv, tag, data, associatedData(keyId, slot, rowId));
      }
      if (parts[0] === 'v1' && parts.length === 4) {
        const [, iv = '', tag = '', data = ''] = parts;
        if (!iv || !tag) return null;
        for (const key of [now, ...older]) {
          const plain = decrypt(key.v1, iv, tag, data);
          if (plain !== null) return plain;
        }
      }
      return null;
    },
    isStale(stored) {
      return !stored.startsWith(`v2.${now.id}.`);
    },
  };
}
