import { useSyncExternalStore } from 'react';
import { readStorage, storageKeys, writeStorage } from './storage';

/** The selected tenant id, persisted as a string under `selectedTenantId` (spec §3). */
type Listener = () => void;
const listeners = new Set<Listener>();

function parse(raw: string | null): number | null {
  if (raw === null || raw.trim() === '') return null;
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : null;
}

export function getSelectedTenantId(): number | null {
  return parse(readStorage(storageKeys.selectedTenantId));
}

export function setSelectedTenantId(id: number | null): void {
  writeStorage(storageKeys.selectedTenantId, id === null ? null : String(id));
  listeners.forEach((l) => l());
}

/** Another tab chose a tenant (or cleared storage): this one follows, so its screens and requests agree. */
function onStorage(event: StorageEvent): void {
  if (event.key === null || event.key === storageKeys.selectedTenantId) listeners.forEach((l) => l());
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

export function useSelectedTenantId(): number | null {
  return useSyncExternalStore(subscribe, getSelectedTenantId, () => null);
}
