import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of third-party secrets (payment-provider API secrets): AES-256-GCM, a random
 * 12-byte IV per value, the 16-byte tag checked on decryption. The key is derived with
 * HKDF-SHA256 from a server secret (ENCRYPTION_KEY, else the JWT secret), with a purpose label, so
 * it is never the secret itself. Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export interface SecretBox {
  encrypt(plain: string): string;
  /** Null when the value was written with another key or altered. */
  decrypt(stored: string): string | null;
}

const VERSION = 'v1';
const INFO = 'rinnova payment-provider secrets v1';

export function createSecretBox(serverSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'rinnova', INFO, 32));
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(stored) {
      const [version, iv, tag, data] = stored.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        return null;
      }
    },
  };
}
