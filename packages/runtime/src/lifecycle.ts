import type { Logger } from 'pino';

export type Closer = () => Promise<void>;

/**
 * Runs closers in reverse order of registration on SIGTERM/SIGINT (stop HTTP first, then consumers,
 * then producers and clients), once, and exits. A second signal forces the exit.
 */
export class Lifecycle {
  private readonly closers: { name: string; close: Closer }[] = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  onClose(name: string, close: Closer): void {
    this.closers.push({ name, close });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const { name, close } of [...this.closers].reverse()) {
        try {
          await close();
          this.logger.debug({ component: name }, 'closed');
        } catch (error) {
          this.logger.error({ err: error, component: name }, 'close failed');
        }
      }
    })();
    return this.closing;
  }

  /** Installs the signal handlers; `exit` is injected so tests can observe it. */
  handleSignals(exit: (code: number) => void = (code) => process.exit(code)): void {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (signalled) {
        this.logger.warn({ signal }, 'second signal, exiting now');
        exit(1);
        return;
      }
      signalled = true;
      this.logger.info({ signal }, 'shutting down');
      void this.close().then(() => exit(0));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
}

/** Runs a service's start function; a failed start is logged and exits non-zero instead of limping on. */
export async function runMain(logger: Logger, start: () => Promise<Lifecycle>): Promise<void> {
  try {
    const lifecycle = await start();
    lifecycle.handleSignals();
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
  }
}
