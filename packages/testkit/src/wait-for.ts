/**
 * Waits until `predicate` holds, checking every `intervalMs`; tests wait on conditions, never on fixed
 * sleeps. Rejects after `timeoutMs` with `description` (and the last error the predicate threw, if any).
 */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  description = 'condition',
  intervalMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await predicate()) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
