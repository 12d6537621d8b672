/**
 * Whether the session folder has settled since the vault opened. Obsidian Sync delivers after layout ready:
 * a draft another device has since ended may still be here, its session note not yet. Other devices' drafts
 * are offered for recovery only once no file of the folder changed for QUIET_MS (contract §5). Once it has
 * been that quiet, it stays settled: later deliveries are ordinary changes, which the core reconciles.
 */
export const QUIET_MS = 5000;

export class FolderQuiet {
  private lastChangeMs: number;
  private settled = false;
  private waiters: Array<() => void> = [];

  constructor(private readonly now: () => number) {
    this.lastChangeMs = now();
  }

  /** Layout ready: sync starts delivering, the quiet is measured from here. */
  restart(): void {
    this.settled = false;
    this.lastChangeMs = this.now();
  }

  /** A file of the session folder was created, changed, deleted or renamed (sync, another window, the user). */
  changed(): void {
    this.check();
    this.lastChangeMs = this.now();
  }

  hasSettled(): boolean {
    this.check();
    return this.settled;
  }

  /** Settles on the first tick at which the folder has settled (at once when it has). */
  whenSettled(): Promise<void> {
    if (this.hasSettled()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Called on every timer tick. */
  tick(): void {
    if (this.waiters.length > 0 && this.hasSettled()) for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** From the recorded times: a gap of QUIET_MS since the last change (a clock set back counts as one). */
  private check(): void {
    const now = this.now();
    if (now - this.lastChangeMs >= QUIET_MS || now < this.lastChangeMs) this.settled = true;
  }
}
