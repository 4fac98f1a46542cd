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

  /**
   * Installs the signal handlers; `exit` is injected so tests can observe it. Returns the handler, so
   * a signal that came before the handlers were installed can be handled too.
   */
  handleSignals(
    exit: (code: number) => void = (code) => process.exit(code),
  ): (signal: NodeJS.Signals) => void {
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
    return onSignal;
  }
}

/**
 * Runs a service's start function; a failed start is logged and exits non-zero instead of limping on.
 * A SIGTERM or SIGINT while it starts (a rolling update, a scale-in, a test stopping a member that is
 * still joining its group) is kept and handled once it has started, so what it opened is closed and it
 * exits 0 rather than dying of the signal; a second signal exits at once.
 */
export async function runMain(
  logger: Logger,
  start: () => Promise<Lifecycle>,
  exit: (code: number) => void = (code) => process.exit(code),
): Promise<void> {
  let early: NodeJS.Signals | undefined;
  const duringStart = (signal: NodeJS.Signals): void => {
    if (early !== undefined) {
      logger.warn({ signal }, 'second signal while starting, exiting now');
      exit(1);
      return;
    }
    early = signal;
    logger.info({ signal }, 'signal while starting: shutting down once started');
  };
  process.on('SIGTERM', duringStart);
  process.on('SIGINT', duringStart);
  try {
    const lifecycle = await start();
    const onSignal = lifecycle.handleSignals(exit);
    if (early !== undefined) onSignal(early);
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    process.exitCode = 1;
    setTimeout(() => exit(1), 100).unref();
  } finally {
    process.off('SIGTERM', duringStart);
    process.off('SIGINT', duringStart);
  }
}
