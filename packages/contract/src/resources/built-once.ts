/**
 * Wraps a builder so each key object gets what it builds once, kept as long as the key lives: a
 * declaration's (a family's, a field's) zod schemas — declarations are constants and schemas
 * immutable, while building them again for every app the server builds (one per test file) was
 * half of building it — or a database's prepared statement. In code the web bundles, mark each call
 * `/* @__PURE__ *\/`: the bundler keeps an unmarked module-level call, and with it zod, in the web's
 * first page even where nothing uses the schema.
 */
export function builtOnce<K extends object, T>(build: (key: K) => T): (key: K) => T {
  const built = new WeakMap<K, T>();
  return (key) => {
    if (built.has(key)) return built.get(key) as T;
    const value = build(key);
    built.set(key, value);
    return value;
  };
}
