/**
 * Memoizes one value per owner object (for example one port per container), so a port is built
 * once per process and tests that start a new runtime get a new one.
 */
export function memoPer<K extends object, V>(factory: (owner: K) => V): (owner: K) => V {
  const cache = new WeakMap<K, V>();
  return (owner) => {
    if (!cache.has(owner)) cache.set(owner, factory(owner));
    return cache.get(owner) as V;
  };
}
