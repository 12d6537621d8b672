/**
 * This app's own signs of life: its timer ticks (contract §4 "Time away"). Intervals stop while a laptop sleeps
 * or a phone suspends the app, so a gap between two ticks longer than the grace period is time away. Only
 * recorded instants are kept; nothing is inferred from how many ticks came.
 */
export class TickWatch {
  private last: number | null = null;
  private gapFrom: number | null = null;
  /** Until the first tick is settled, this app vouches for nothing before it: the draft's signs decide. */
  private vouching = false;

  constructor(private readonly graceMs: () => number) {}

  /** A tick at `now`. A gap since the previous one longer than the grace period is kept until settled. */
  tick(now: number): void {
    const last = this.last;
    if (this.vouching && last !== null && this.gapFrom === null && now - last > this.graceMs()) this.gapFrom = last;
    this.last = now;
  }

  /**
   * The last moment this app is known to have been running, for the core's `aliveAt`: the tick before a
   * pending gap, else the last tick; null before the first tick is settled.
   */
  aliveAt(): number | null {
    return this.vouching ? (this.gapFrom ?? this.last) : null;
  }

  /** The later of a recorded sign of life and this app's (aliveAt), never after `now`. */
  lastSign(recorded: number, now: number): number {
    const alive = this.aliveAt();
    return alive === null ? recorded : Math.max(recorded, Math.min(alive, now));
  }

  /** Any gap was recorded as a break, or needs nothing (no session of this device, a paused one). */
  settled(): void {
    this.gapFrom = null;
    this.vouching = this.last !== null;
  }
}
