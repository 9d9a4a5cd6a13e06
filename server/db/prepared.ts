/**
 * Named prepared statements, built once per executor (the database, or a transaction) and name.
 * drizzle renders a prepared query's SQL once, and node-postgres parses a named statement once
 * per connection: a later call sends only its parameters (Bind/Execute), with no query building
 * in this process and no parsing or planning from scratch in the database. The name must always
 * stand for the same SQL text: a query whose shape varies (which filters are set) carries that
 * shape in its name.
 */
const byExecutor = new WeakMap<object, Map<string, unknown>>();

export function preparedOnce<T>(executor: object, name: string, build: (name: string) => T): T {
  let statements = byExecutor.get(executor);
  if (!statements) byExecutor.set(executor, (statements = new Map()));
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) statements.set(name, (statement = build(name)));
  return statement;
}
