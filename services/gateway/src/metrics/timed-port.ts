/**
 * The port with each asynchronous call timed: `observe(operation, outcome, seconds)` once the promise a
 * method returns settles (outcome `success` or `error`). Synchronous results and properties pass
 * through untouched; each method's wrapper is made once.
 */
export function timedPort<T extends object>(
  port: T,
  observe: (operation: string, outcome: 'success' | 'error', seconds: number) => void,
): T {
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(port, {
    get(target, property, receiver) {
      // Read on the target itself: a getter over private fields would fail with the proxy as `this`.
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor')
        return value;
      let wrapper = wrappers.get(property);
      if (wrapper === undefined) {
        const method = value as (...args: unknown[]) => unknown;
        wrapper = function (this: unknown, ...args: unknown[]): unknown {
          const started = process.hrtime.bigint();
          const result = method.apply(this === receiver ? target : this, args);
          if (!(result instanceof Promise)) return result;
          const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
          return result.then(
            (v: unknown) => {
              observe(property, 'success', seconds());
              return v;
            },
            (error: unknown) => {
              observe(property, 'error', seconds());
              throw error;
            },
          );
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
