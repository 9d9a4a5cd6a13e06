/** Browser storage keys of the session (spec §3, §9): token, user, selectedTenantId. */
export const storageKeys = {
  token: 'token',
  user: 'user',
  selectedTenantId: 'selectedTenantId',
} as const;

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lives in memory only.
  }
}
