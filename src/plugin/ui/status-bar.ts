import { formatElapsed } from "../../core/time";
import type { OpenState } from "../session-controller";

/** The status bar text: "Start session" when idle, else the topic and the time since the recorded start. */
export function statusText(open: OpenState | null, now: number, showSeconds: boolean): string {
  if (!open) return "Start session";
  if (!open.running) return `${open.session.topicId} (interrupted)`;
  const elapsed = formatElapsed(now - open.startedMs, showSeconds);
  const where = open.mine ? "" : ` (on ${open.session.device ?? "another device"})`;
  return `${open.session.topicId} ${elapsed}${where}`;
}

/**
 * The desktop status-bar item (there is none on mobile). It only renders: elapsed time is computed from the
 * recorded start on every tick, so sleep or a suspended window never skews it, and nothing is written.
 */
export class StatusBarTimer {
  private lastText = "";

  constructor(
    private readonly el: HTMLElement,
    private readonly state: () => OpenState | null,
    private readonly now: () => number,
    private readonly showSeconds: () => boolean,
  ) {
    el.addClass("palee-status-bar", "mod-clickable");
  }

  render(): void {
    const open = this.state();
    const text = statusText(open, this.now(), this.showSeconds());
    if (text === this.lastText) return;
    this.lastText = text;
    this.el.setText(text);
    const label = !open ? "Start a study session" : open.running ? "Session menu" : "Recover the interrupted session";
    this.el.setAttribute("aria-label", label);
  }
}
