import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A value in the first stored form of secrets (`v1.<iv>.<tag>.<data>`: no row binding, no key
 * id), as databases written before the v2 form hold it: what the re-encryption job migrates.
 */
export function sealV1(keyMaterial: string, plain: string): string {
  const key = Buffer.from(
    hkdfSync('sha256', keyMaterial, 'rinnova', 'rinnova payment-provider secrets v1', 32),
  );
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), data].map((p) => p.toString('base64url'))].join('.');
}
