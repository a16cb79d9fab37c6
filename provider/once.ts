/**
 * perProcess builds a value once per process (a zod schema, whose build and first compile cost ~3 ms) and
 * hands the same one to every later call. The values live on `globalThis` under a registered symbol, keyed
 * by the build function itself, not in a module-level variable: a Pulumi dynamic provider serializes the
 * module-level values its functions capture by copy, and a zod v4 schema does not survive that, while
 * `globalThis` and `Symbol.for` stay references. Keyed by the function, two copies of costgate in one
 * process never share a value. Only for values nobody mutates.
 * @internal
 */
export function perProcess<T>(build: () => T): T {
  const g = globalThis as unknown as Record<symbol, WeakMap<() => unknown, unknown> | undefined>;
  const key = Symbol.for("costgate.perProcess");
  let cache = g[key];
  if (!cache) {
    cache = new WeakMap();
    g[key] = cache;
  }
  if (cache.has(build)) return cache.get(build) as T;
  const value = build();
  cache.set(build, value);
  return value;
}
