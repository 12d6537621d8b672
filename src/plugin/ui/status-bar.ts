import { studiedMs } from "../../core/honest-time";
import { formatElapsed } from "../../core/time";
import { topicLabel } from "../../core/topics/display";
import type { OpenState } from "../session-controller";

/** The time studied so far: from the recorded start, breaks excluded, frozen at the pause while paused. */
export function studiedSoFar(open: OpenState, now: number): number {
  const { startedMs, pausedMs } = open;
  return studiedMs({ startedMs, pausedMs, breakMinutes: open.session.breakMinutes }, now);
}

/**
 * The status bar text: "Start session" when idle ("Start session · 3 due" with topics due for review), else the
 * topic (its note's name) and the time studied.
 */
export function statusText(
  open: OpenState | null,
  now: number,
  showSeconds: boolean,
  due = 0,
  topic = open ? topicLabel(open.session.topicId, open.session.topicNote) : "",
): string {
  if (!open) return due > 0 ? `Start session · ${due} due` : "Start session";
  const paused = open.pausedMs !== null;
  // Another device's paused session writes nothing while paused: it is paused, not interrupted.
  if (!open.running && !(paused && !open.mine)) return `${topic} (interrupted)`;
  const elapsed = formatElapsed(studiedSoFar(open, now), showSeconds);
  const device = open.session.device ?? "another device";
  const where = open.mine ? (paused ? " (paused)" : "") : paused ? ` (paused on ${device})` : ` (on ${device})`;
  return `${topic} ${elapsed}${where}`;
}

/**
 * The desktop status-bar item (there is none on mobile). It only renders: the time studied is computed from
 * the recorded start, breaks and pause on every tick, so sleep or a suspended window never skews it.
 */
export class StatusBarTimer {
  private lastText = "";
  /** The open topic's name as last read (`name` reads the topic notes: not on every tick). */
  private named: { key: string; name: string } | null = null;

  constructor(
    private readonly el: HTMLElement,
    private readonly state: () => OpenState | null,
    private readonly now: () => number,
    private readonly showSeconds: () => boolean,
    /** Topics due for review now (contract §5 version 4), counted after each change; 0 while unknown. */
    private readonly due: () => number = () => 0,
    /** A topic's display name (contract §5 version 4, topics by name): its note's name, else its ID. */
    private readonly name: (topicId: string, topicNote: string | null) => string = topicLabel,
  ) {
    el.addClass("palee-status-bar", "mod-clickable");
  }

  /** `fresh`: read the topic's name again (the session or its topic changed), else the one read before. */
  render(fresh = false): void {
    const open = this.state();
    const text = statusText(open, this.now(), this.showSeconds(), this.due(), open ? this.topicOf(open, fresh) : "");
    if (text === this.lastText) return;
    this.lastText = text;
    this.el.setText(text);
    const label = !open ? "Start a study session" : open.running ? "Session menu" : "Recover the interrupted session";
    this.el.toggleClass("palee-paused", open?.pausedMs != null);
    this.el.setAttribute("aria-label", label);
  }

  private topicOf(open: OpenState, fresh: boolean): string {
    const { topicId, topicNote } = open.session;
    const key = `${topicId}\n${topicNote ?? ""}`;
    if (fresh || this.named?.key !== key) this.named = { key, name: this.name(topicId, topicNote ?? null) };
    return this.named.name;
  }
}
