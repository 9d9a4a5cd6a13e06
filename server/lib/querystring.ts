export type QueryValue = string | string[] | QueryObject;
export interface QueryObject {
  [key: string]: QueryValue;
}

const BRACKETED = /^([^[\]]+)\[([^[\]]*)\]$/;

/**
 * Fastify's query parser, extended with one level of brackets: `filters[name]=x` becomes
 * `{ filters: { name: 'x' } }` (axios and the SPA send filters that way), `ids[]=1&ids[]=2` and
 * repeated keys become arrays. Deeper nesting is not needed by the contract and stays literal.
 */
export function parseQueryString(input: string): QueryObject {
  const out: QueryObject = Object.create(null) as QueryObject;
  for (const [rawKey, value] of new URLSearchParams(input)) {
    const match = BRACKETED.exec(rawKey);
    if (match?.[1] && match[2] !== undefined) {
      const [, parent, child] = match;
      if (child === '') {
        append(out, parent, value);
        continue;
      }
      const existing = out[parent];
      const nested: QueryObject =
        existing && typeof existing === 'object' && !Array.isArray(existing)
          ? existing
          : (Object.create(null) as QueryObject);
      append(nested, child, value);
      out[parent] = nested;
      continue;
    }
    append(out, rawKey, value);
  }
  return out;
}

function append(target: QueryObject, key: string, value: string): void {
  const existing = target[key];
  if (existing === undefined) target[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else if (typeof existing === 'string') target[key] = [existing, value];
  // A key used both as `a=1` and `a[b]=2` keeps the object: the bracketed form is the contract's.
}
