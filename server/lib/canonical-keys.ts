/**
 * Renames the keys of `input` to the spelling of `canonicalKeys`, ignoring case, so `Email`,
 * `EMAIL` and `email` all bind to the schema's `email` (the contract binds bodies
 * case-insensitively, as ASP.NET does). Keys that match nothing are left as they are.
 * A canonical key already present wins over a differently-cased duplicate.
 */
export function canonicalizeKeys(
  input: Record<string, unknown>,
  canonicalKeys: readonly string[],
): Record<string, unknown> {
  const byLower = new Map(canonicalKeys.map((k) => [k.toLowerCase(), k]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === '__proto__') continue;
    const canonical = byLower.get(key.toLowerCase()) ?? key;
    if (canonical !== key && Object.hasOwn(input, canonical)) continue;
    out[canonical] = value;
  }
  return out;
}
