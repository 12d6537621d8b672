import { Menu } from "obsidian";
import type { FlowContext } from "./context";
import { checkpoint } from "./checkpoint";
import { end } from "./end";
import { openSessionNote, showStatus } from "./open-session";
import { start } from "./start";

/** Ribbon: end the session running here, or start one. */
export function toggle(ctx: FlowContext): Promise<void> {
  const open = ctx.controller.open;
  return open && open.mine && open.running ? end(ctx) : start(ctx);
}

/** Status bar click: start when idle; otherwise a menu with checkpoint / open session note / end. */
export function statusBarClick(ctx: FlowContext, event: MouseEvent): void {
  const open = ctx.controller.open;
  if (!open || !open.running) {
    void start(ctx);
    return;
  }
  // The same rule as the commands: only this device's running session is checkpointed or ended here.
  const here = open.mine;
  const menu = new Menu();
  if (here) menu.addItem((item) => item.setTitle("Save checkpoint").setIcon("save").onClick(() => void checkpoint(ctx)));
  menu.addItem((item) => item.setTitle("Open session note").setIcon("file-text").onClick(() => void openSessionNote(ctx)));
  if (here) menu.addItem((item) => item.setTitle("End session").setIcon("square").onClick(() => void end(ctx)));
  else menu.addItem((item) => item.setTitle("Show session status").setIcon("info").onClick(() => void showStatus(ctx)));
  menu.showAtMouseEvent(event);
}
