/**
 * Wraps a schema builder so each declaration (a family, a field) gets its schema built once:
 * declarations are constants and zod schemas are immutable, while building them again for every
 * app the server builds (one per test file) was most of the server's start-up CPU.
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
