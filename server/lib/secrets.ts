import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random URL-safe token (32 bytes) for links sent by e-mail. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored: the token itself exists in the e-mail alone. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time string comparison (compares digests, so lengths never leak either). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
