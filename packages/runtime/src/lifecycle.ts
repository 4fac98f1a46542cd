import type { Logger } from 'pino';

export type Closer = () => Promise<void>;

/**
 * How long after a signal the same signal again is the same request delivered twice rather than an
 * operator asking to force the exit. Ctrl+C sends SIGINT to the terminal's whole foreground process
 * group, and `pnpm start` (pnpm 9) relays its own copy to the catalog too: the two arrive
 * milliseconds apart, far sooner than a person presses twice.
 */
export const REPEATED_SIGNAL_MS = 1000;

/**
 * Tells a signal that asks to force the exit from a second copy of the one already being handled: a
 * different signal, or the same one after REPEATED_SIGNAL_MS.
 */
class SignalRepeats {
  private first: { signal: NodeJS.Signals; at: number } | undefined;

  constructor(private readonly now: () => number) {}

  /** 'first', 'copy' (ignore it) or 'force'. */
  classify(signal: NodeJS.Signals): 'first' | 'copy' | 'force' {
    const at = this.now();
    if (this.first === undefined) {
      this.first = { signal, at };
      return 'first';
    }
    return signal === this.first.signal && at - this.first.at < REPEATED_SIGNAL_MS ? 'copy' : 'force';
  }
}

/**
 * Runs closers in reverse order of registration on SIGTERM/SIGINT (stop HTTP first, then consumers,
 * then producers and clients), once, and exits. A second signal forces the exit (not a copy of the
 * first: see REPEATED_SIGNAL_MS).
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
          this.logger.debug({ closer: name }, 'closed');
        } catch (error) {
          this.logger.error({ err: error, closer: name }, 'close failed');
        }
      }
    })();
    return this.closing;
  }

  /**
   * Installs the signal handlers; `exit` and the clock are injected so tests can observe them.
   * Returns the handler, so a signal that came before the handlers were installed can be handled too.
   */
  handleSignals(
    exit: (code: number) => void = (code) => process.exit(code),
    now: () => number = Date.now,
  ): (signal: NodeJS.Signals) => void {
    const repeats = new SignalRepeats(now);
    const onSignal = (signal: NodeJS.Signals): void => {
      const kind = repeats.classify(signal);
      if (kind === 'copy') {
        this.logger.debug({ signal }, 'the same signal again at once: already shutting down');
        return;
      }
      if (kind === 'force') {
        this.logger.warn({ signal }, 'second signal, exiting now');
        exit(1);
        return;
      }
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
  now: () => number = Date.now,
): Promise<void> {
  let early: NodeJS.Signals | undefined;
  const repeats = new SignalRepeats(now);
  const duringStart = (signal: NodeJS.Signals): void => {
    const kind = repeats.classify(signal);
    if (kind === 'copy') return;
    if (kind === 'force') {
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
    const onSignal = lifecycle.handleSignals(exit, now);
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
