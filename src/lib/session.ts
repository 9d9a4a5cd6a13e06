import { useSyncExternalStore } from 'react';
import { isRoleId, type RoleId } from '../../contract/enums';
import type { SessionUser as LoginUser } from '../../contract/schemas/auth';
import { readStorage, storageKeys, writeStorage } from './storage';
import { setSelectedTenantId } from './tenant-store';

/**
 * The signed-in session (spec §3, §4): `token` and `user` in browser storage, `user` being JSON
 * `{ email, role }` where role is the login response's roleId (id, name and defaultTenantId are
 * kept too). One module-level store, read by React through useSyncExternalStore and by the
 * axios interceptor without React.
 */
export interface StoredUser {
  email: string;
  role: RoleId;
  id?: number;
  name?: string | null;
  defaultTenantId?: number | null;
}

export interface Session {
  token: string;
  user: StoredUser;
}

/** Why a session ended: decides where the routine sends the user and which toast it shows. */
export type SessionEndReason = 'expired' | 'unauthorized' | 'network' | 'logout' | 'tenantLoadFailed';

export type RestoreOutcome = 'restored' | 'anonymous' | 'invalid';

type Listener = () => void;
const listeners = new Set<Listener>();
let current: Session | null = null;
let lastRestore: RestoreOutcome = 'anonymous';
let lastEndReason: SessionEndReason | null = null;
let endHandler: ((reason: SessionEndReason) => void) | null = null;

function emit() {
  listeners.forEach((l) => l());
}

/** The stored `user` value, or null when missing, the string 'undefined', not JSON or lacking a role. */
export function parseStoredUser(raw: string | null): StoredUser | null {
  if (raw === null) return null;
  const text = raw.trim();
  if (text === '' || text === 'undefined' || text === 'null') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.email !== 'string' || !isRoleId(v.role)) return null;
  return {
    email: v.email,
    role: v.role,
    ...(typeof v.id === 'number' ? { id: v.id } : {}),
    ...(typeof v.name === 'string' || v.name === null ? { name: v.name } : {}),
    ...(typeof v.defaultTenantId === 'number' || v.defaultTenantId === null
      ? { defaultTenantId: v.defaultTenantId }
      : {}),
  };
}

/**
 * Reads the session from storage at start (spec §4): a token with a valid stored user is
 * restored; a token whose user is missing or invalid is removed ('invalid': go to /login).
 */
export function restoreSession(): RestoreOutcome {
  const token = readStorage(storageKeys.token);
  const user = parseStoredUser(readStorage(storageKeys.user));
  lastEndReason = null;
  if (token && user) {
    current = { token, user };
    lastRestore = 'restored';
  } else if (token) {
    writeStorage(storageKeys.token, null);
    writeStorage(storageKeys.user, null);
    current = null;
    lastRestore = 'invalid';
  } else {
    current = null;
    lastRestore = 'anonymous';
  }
  emit();
  return lastRestore;
}

/** The outcome of the last restoreSession(); an 'invalid' one is consumed once (redirect to /login). */
export function takeInvalidRestore(): boolean {
  if (lastRestore !== 'invalid') return false;
  lastRestore = 'anonymous';
  return true;
}

export function getSession(): Session | null {
  return current;
}

/** After a successful login: store token and user, and take the tenant from defaultTenantId. */
export function startSession(token: string, user: LoginUser): Session {
  const stored: StoredUser = {
    email: user.email,
    role: user.roleId,
    id: user.id,
    name: user.name,
    defaultTenantId: user.defaultTenantId,
  };
  writeStorage(storageKeys.token, token);
  writeStorage(storageKeys.user, JSON.stringify(stored));
  setSelectedTenantId(user.defaultTenantId ?? null);
  current = { token, user: stored };
  lastEndReason = null;
  emit();
  return current;
}

/**
 * The logout/redirect routine. Removes token and user (and the tenant on an explicit logout),
 * then hands over to the app's handler (clears the query cache and navigates). A burst of 401s
 * ends the session once: the first decides the reason.
 */
export function endSession(reason: SessionEndReason): void {
  const hadSession = current !== null || readStorage(storageKeys.token) !== null;
  // Without a session there is nothing to end: a public page (landing, payment, reset) that
  // meets a 401 or a network error stays where it is.
  if (!hadSession && reason !== 'logout') return;
  writeStorage(storageKeys.token, null);
  writeStorage(storageKeys.user, null);
  if (reason === 'logout') setSelectedTenantId(null);
  current = null;
  lastEndReason = reason;
  endHandler?.(reason);
  emit();
}

/** Why the last session ended (null after a login or a fresh start). */
export function getLastEndReason(): SessionEndReason | null {
  return lastEndReason;
}

/** Where the routine sends the user: expiry carries ?sessionExpired=true for the login toast. */
export function loginPathFor(reason: SessionEndReason | null): string {
  return reason === 'expired' ? '/login?sessionExpired=true' : '/login';
}

/** Registered by the app root (it owns navigation and the query cache). Returns the unregister. */
export function setSessionEndHandler(handler: (reason: SessionEndReason) => void): () => void {
  endHandler = handler;
  return () => {
    if (endHandler === handler) endHandler = null;
  };
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

/** The `exp` claim of a JWT in milliseconds, or null when the token is not a readable JWT. */
export function tokenExpiryMs(token: string): number | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const payload = JSON.parse(json) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}
