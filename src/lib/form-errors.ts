import { failureEnvelope } from './entity-hooks';

/**
 * The server's field errors ('amount: L’importo …') split by field (prefix removed), for the
 * `keys` the form shows; anything else is a general message.
 */
export function splitFieldErrors<K extends string>(
  error: unknown,
  keys: readonly K[],
): { fields: Partial<Record<K, string>>; general: string[] } {
  const env = failureEnvelope(error);
  const list = env && Array.isArray(env.errors) && env.errors.length > 0 ? env.errors.map(String) : [];
  const fields: Partial<Record<K, string>> = {};
  const general: string[] = [];
  for (const text of list) {
    const m = /^\s*([A-Za-z][\w.]*)\s*:\s*(.+)$/s.exec(text);
    const key = m ? keys.find((k) => k.toLowerCase() === m[1]!.toLowerCase()) : undefined;
    if (m && key) fields[key] ??= m[2]!.trim();
    else general.push(text);
  }
  if (list.length === 0 && env && typeof env.message === 'string' && env.message.trim())
    general.push(env.message);
  return { fields, general };
}
