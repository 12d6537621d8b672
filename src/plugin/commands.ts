import type { Plugin } from "obsidian";
import { copyBrief } from "./flows/brief";
import { checkpoint } from "./flows/checkpoint";
import type { FlowContext } from "./flows/context";
import { end } from "./flows/end";
import { importFolder } from "./flows/import";
import { logSession } from "./flows/log";
import { openSessionNote, showStatus } from "./flows/open-session";
import { continueSession, pause } from "./flows/pause";
import { recoverDrafts } from "./flows/recovery";
import { start } from "./flows/start";
import { studyNext } from "./flows/study-next";
import { copyHot, openHot, rebuild } from "./flows/working-memory";
import { openYear, setGoals } from "./flows/goals";

type Flow = (ctx: FlowContext) => Promise<void>;

/**
 * The command palette entries. Their ids are stable: users bind hotkeys to them. No default hotkeys.
 * Commands that need an open session use checkCallback, so they only appear when they can run.
 */
export function registerCommands(plugin: Plugin, ctx: FlowContext): void {
  const always = (flow: Flow) => (): void => void flow(ctx);
  // `paused`: pause and continue, each only when it applies to this device's running session.
  const whenOpen =
    (flow: Flow, mineOnly: boolean, paused?: boolean) =>
    (checking: boolean): boolean => {
      const open = ctx.controller.open;
      if (!open || (mineOnly && !(open.mine && open.running))) return false;
      if (paused !== undefined && (open.pausedMs !== null) !== paused) return false;
      if (!checking) void flow(ctx);
      return true;
    };
  const add = plugin.addCommand.bind(plugin);
  add({ id: "start-session", name: "Start session", callback: always(start) });
  add({ id: "save-checkpoint", name: "Save checkpoint", checkCallback: whenOpen(checkpoint, true) });
  add({ id: "pause-session", name: "Pause session", checkCallback: whenOpen(pause, true, false) });
  add({ id: "continue-session", name: "Continue session", checkCallback: whenOpen(continueSession, true, true) });
  add({ id: "end-session", name: "End session", checkCallback: whenOpen(end, true) });
  add({ id: "log-session", name: "Log a past session", callback: always(logSession) });
  add({ id: "study-next", name: "What should I study next?", callback: always(studyNext) });
  add({ id: "recover-drafts", name: "Recover interrupted sessions", callback: always(recoverDrafts) });
  add({ id: "show-status", name: "Show session status", callback: always(showStatus) });
  add({ id: "open-working-memory", name: "Open working memory", callback: always(openHot) });
  add({ id: "open-session-note", name: "Open current session note", checkCallback: whenOpen(openSessionNote, false) });
  add({ id: "copy-working-memory", name: "Copy working memory to the clipboard", callback: always(copyHot) });
  add({ id: "copy-tutor-brief", name: "Copy tutor brief to the clipboard", callback: always(copyBrief) });
  add({ id: "rebuild-views", name: "Rebuild working memory and index", callback: always(rebuild) });
  add({ id: "import-palee-folder", name: "Import a .palee folder", callback: always(importFolder) });
  add({ id: "set-goals", name: "Set goals", callback: always(setGoals) });
  add({ id: "open-year", name: "Open the year of study", callback: always(openYear) });
}
