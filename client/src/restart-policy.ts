// When the language server dies: restart it, unless it died too often lately (a crash loop).
// Pure (the clock is injected), so it is unit-tested without VS Code.

export interface CrashDecision {
  restart: boolean;
  /** shown to the user either way */
  message: string;
}

export class RestartPolicy {
  private crashes: number[] = [];

  constructor(
    readonly maxRestarts = 5,
    readonly windowMs = 3 * 60_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Records a crash and decides. */
  onCrash(): CrashDecision {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    const n = this.crashes.length;
    const minutes = Math.round(this.windowMs / 60_000);
    if (n <= this.maxRestarts) {
      return {
        restart: true,
        message: `The Layout language server stopped unexpectedly and is being restarted (${n} of ${this.maxRestarts} restarts in ${minutes} minutes).`,
      };
    }
    return {
      restart: false,
      message: `The Layout language server stopped ${n} times in ${minutes} minutes and will not be restarted. See the "Layout" output; run "Layout: Restart Language Server" to try again.`,
    };
  }

  /** Forget past crashes (after a manual restart). */
  reset(): void {
    this.crashes = [];
  }
}
