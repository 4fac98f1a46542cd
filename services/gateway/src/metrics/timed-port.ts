/** What a timed call reports: its duration in seconds, by outcome. */
export interface OperationTimer {
  success(seconds: number): void;
  error(seconds: number): void;
}

/**
 * The port with each asynchronous call timed: once the promise a method returns settles, its
 * operation's timer hears the outcome and the seconds it took. Built once: every method found on the
 * port and its prototypes gets one wrapper (and one timer, from `timerFor(name)`); synchronous results
 * pass through untouched; properties and getters are read on the port itself (getters over private
 * fields keep working). A plain object, not a Proxy: a call costs the wrapper and one `then`.
 */
export function timedPort<T extends object>(port: T, timerFor: (operation: string) => OperationTimer): T {
  const timed = Object.create(port) as Record<string, unknown>;
  for (let proto: object | null = port; proto !== null && proto !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || Object.prototype.hasOwnProperty.call(timed, name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
      if (descriptor.get !== undefined || descriptor.set !== undefined) {
        const { get, set } = descriptor;
        Object.defineProperty(timed, name, {
          ...(get ? { get: () => get.call(port) as unknown } : {}),
          ...(set ? { set: (value: unknown) => set.call(port, value) } : {}),
          configurable: true,
        });
      } else if (typeof descriptor.value === 'function') {
        timed[name] = timedMethod(port, descriptor.value as (...args: unknown[]) => unknown, timerFor(name));
      }
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return timed as T;
}

function timedMethod(
  port: object,
  method: (...args: unknown[]) => unknown,
  timer: OperationTimer,
): (...args: unknown[]) => unknown {
  return function (...args: unknown[]): unknown {
    const started = performance.now();
    const result = method.apply(port, args);
    if (!(result instanceof Promise)) return result;
    return result.then(
      (value: unknown) => {
        timer.success((performance.now() - started) / 1000);
        return value;
      },
      (error: unknown) => {
        timer.error((performance.now() - started) / 1000);
        throw error;
      },
    );
  };
}
