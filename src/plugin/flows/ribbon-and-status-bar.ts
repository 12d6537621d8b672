import { Menu } from "obsidian";
import type { FlowContext } from "./context";
import { checkpoint } from "./checkpoint";
import { end } from "./end";
import { openSessionNote, showStatus } from "./open-session";
import { continueSession, pause } from "./pause";
import { start } from "./start";

/** Ribbon: end the session running here, or start one. */
export function toggle(ctx: FlowContext): Promise<void> {
  const open = ctx.controller.open;
  return open && open.mine && open.running ? end(ctx) : start(ctx);
}

/** Status bar click: start when idle; otherwise a menu with pause or continue / checkpoint / open note / end. */
export function statusBarClick(ctx: FlowContext, event: MouseEvent): void {
  const open = ctx.controller.open;
  if (!open || !open.running) {
    void start(ctx);
    return;
  }
  // The same rule as the commands: only this device's running session is checkpointed or ended here.
  const here = open.mine;
  const menu = new Menu();
  const add = (title: string, icon: string, flow: (ctx: FlowContext) => Promise<void>): void => {
    menu.addItem((item) =>
      item
        .setTitle(title)
        .setIcon(icon)
        .onClick(() => void flow(ctx)),
    );
  };
  if (here && open.pausedMs !== null) add("Continue session", "play", continueSession);
  else if (here) add("Pause session", "pause", pause);
  if (here) add("Save checkpoint", "save", checkpoint);
  add("Open session note", "file-text", openSessionNote);
  if (here) add("End session", "square", end);
  else add("Show session status", "info", showStatus);
  menu.showAtMouseEvent(event);
}
