/**
 * Work that runs one round at a time (a replay, a count of the outbox, a read-back): a call while a
 * round runs asks for one more round after it (a thousand calls meanwhile make one more round, not a
 * thousand), and each caller gets the promise of the run that covers its call.
 */
export class Rounds {
  private running: Promise<void> | null = null;
  private again = false;

  /**
   * `round` does one round; it answers 'stop' to end the run however many rounds were asked (a failed
   * read-back waits for the next call). `goOn` is asked before each further round (the engine stopped).
   */
  constructor(
    private readonly round: () => Promise<'stop' | void>,
    private readonly goOn: () => boolean = () => true,
  ) {}

  /** Starts a run, or asks the running one to go round again; resolves when that run ends. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          if ((await this.round()) === 'stop') return;
        } while (this.again && this.goOn());
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Asks for one more round after the running one (a round may ask it of its own run). */
  roundAgain(): void {
    this.again = true;
  }

  /** The running run, if any. */
  get current(): Promise<void> | null {
    return this.running;
  }
}
