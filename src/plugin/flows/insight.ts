/**
 * Insight in the plugin (contract §5, version 2): the study history view and the commands `open-history`,
 * `export-sessions` and `create-sessions-base`. The plugin keeps no reference to the view: Obsidian owns it
 * and finds it by type.
 */
import type { App, Plugin, WorkspaceLeaf } from "obsidian";
import { errorMessage } from "../../core/errors";
import type { FlowContext } from "./context";
import { copySessionsCsv, exportSessions } from "./export";
import { historySource } from "./history-source";
import { createSessionsBase } from "./sessions-base";
import { HISTORY_VIEW, HistoryView } from "../ui/history-view";

/** Insight works with the flows' context: the app, the controller, the store, the settings and notices. */
export type InsightDeps = FlowContext;

export function registerInsight(plugin: Plugin, deps: InsightDeps): void {
  plugin.registerView(HISTORY_VIEW.type, (leaf) => new HistoryView(leaf, historySource(deps)));
  // Its links preview on hover like any note's (Page preview core plugin); Mod-hover, as in the sidebars.
  plugin.registerHoverLinkSource(HISTORY_VIEW.type, { display: "PALEE Sessions", defaultMod: true });
  plugin.addCommand({
    id: "open-history",
    name: "Open study history",
    callback: () => void openHistory(deps.app, (message) => deps.notify(message, 8000)),
  });
  plugin.addCommand({
    id: "export-sessions",
    name: "Export sessions to CSV",
    callback: () => void exportSessions(deps),
  });
  plugin.addCommand({
    id: "copy-sessions-csv",
    name: "Copy sessions as CSV",
    callback: () => void copySessionsCsv(deps),
  });
  plugin.addCommand({
    id: "create-sessions-base",
    name: "Create sessions base",
    callback: () => void createSessionsBase(deps),
  });
}

/** Shows the view in the right sidebar (the one already open, else a new one); a failure is a notice. */
export async function openHistory(app: App, notify: (message: string) => void): Promise<void> {
  try {
    const existing = app.workspace.getLeavesOfType(HISTORY_VIEW.type)[0] as WorkspaceLeaf | undefined;
    const leaf = existing ?? app.workspace.getRightLeaf(false);
    if (!leaf) {
      notify("Could not open the study history: there is no sidebar to show it in.");
      return;
    }
    if (!existing) await leaf.setViewState({ type: HISTORY_VIEW.type, active: true });
    await app.workspace.revealLeaf(leaf);
  } catch (error) {
    console.error("PALEE Sessions: study history", error);
    notify(`Could not open the study history: ${errorMessage(error)}`);
  }
}
