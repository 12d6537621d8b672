/**
 * Insight in the plugin (contract §5, version 2): the study history view and the commands `open-history`,
 * `export-sessions` and `create-sessions-base`. The plugin keeps no reference to the view: Obsidian owns it
 * and finds it by type.
 */
import type { App, Plugin, TAbstractFile, WorkspaceLeaf } from "obsidian";
import { FileExistsError, errorMessage } from "../../core/errors";
import { renderExportCsv } from "../../core/insight/export";
import { renderSessionsBase } from "../../core/formats/bases";
import type { FlowContext } from "./context";
import { end } from "./end";
import { continueSession, pause } from "./pause";
import { openFile } from "./open-session";
import { recoverDrafts } from "./recovery";
import type { HistorySource } from "../ui/history-view";
import { HISTORY_VIEW, HistoryView, historyModel } from "../ui/history-view";

/** Insight works with the flows' context: the app, the controller, the store, the settings and notices. */
export type InsightDeps = FlowContext;

export function registerInsight(plugin: Plugin, deps: InsightDeps): void {
  const notify = (message: string): void => deps.notify(message, 8000);
  plugin.registerView(HISTORY_VIEW.type, (leaf) => new HistoryView(leaf, historySource(deps)));
  plugin.addCommand({
    id: "open-history",
    name: "Open study history",
    callback: () => void openHistory(deps.app, notify),
  });
  plugin.addCommand({
    id: "export-sessions",
    name: "Export sessions to CSV",
    callback: () => void exportSessions(deps, notify),
  });
  plugin.addCommand({
    id: "create-sessions-base",
    name: "Create sessions base",
    callback: () => void createSessionsBase(deps, notify),
  });
}

/** What the view reads: confirmed sessions through the scan cache (metadata cache first), and the open session. */
export function historySource(deps: InsightDeps): HistorySource {
  const { app, controller } = deps;
  return {
    async load() {
      const { confirmed, skipped } = await controller.confirmedSessions();
      return historyModel({
        confirmed,
        skipped,
        now: controller.now(),
        offsetAt: controller.offsetAt,
        open: controller.open,
        showSeconds: deps.settings().showSeconds,
      });
    },
    onChange(listener) {
      const concerns = (path: string): boolean => path.startsWith(`${controller.layout.sessions}/`);
      const refs = [
        app.metadataCache.on("changed", (file) => concerns(file.path) && listener()),
        app.vault.on("delete", (file: TAbstractFile) => concerns(file.path) && listener()),
        app.vault.on(
          "rename",
          (file: TAbstractFile, oldPath: string) => (concerns(file.path) || concerns(oldPath)) && listener(),
        ),
      ];
      const off = controller.onChange(listener);
      return () => {
        off();
        app.metadataCache.offref(refs[0]);
        app.vault.offref(refs[1]);
        app.vault.offref(refs[2]);
      };
    },
    now: () => controller.now(),
    actions: {
      openPath: (path) => void openFile(app, path),
      // The source is a note (the index, which holds the same links), never a folder.
      openLink: (linktext) => void app.workspace.openLinkText(linktext, controller.layout.index, false),
      end: () => void end(deps),
      pause: () => void pause(deps),
      continueSession: () => void continueSession(deps),
      recover: () => void recoverDrafts(deps),
    },
  };
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

/** `<folder>/exports/sessions-<today>.csv`, or `…-2.csv`, `…-3.csv` when taken: never replaces a file. */
export async function exportSessions(deps: InsightDeps, notify: (message: string) => void): Promise<string | null> {
  const { controller, store } = deps;
  try {
    const { rows, skipped } = await controller.exportRows();
    const csv = renderExportCsv(rows);
    const base = `${controller.layout.folder}/exports/sessions-${controller.today()}`;
    for (let n = 1; n < 1000; n++) {
      const path = `${base}${n === 1 ? "" : `-${n}`}.csv`;
      try {
        await store.create(path, csv);
      } catch (error) {
        if (error instanceof FileExistsError) continue;
        throw error;
      }
      const left =
        skipped.length > 0 ? ` ${skipped.length} unreadable note(s) left out: the history view lists them.` : "";
      notify(`Exported ${rows.length} session(s) to ${path}.${left}`);
      return path;
    }
    notify(`Could not export: ${base}.csv and 998 numbered copies already exist.`);
  } catch (error) {
    console.error("PALEE Sessions: export", error);
    notify(`Could not export the sessions: ${errorMessage(error)}`);
  }
  return null;
}

/** Writes `<folder>/sessions.base` once; when it exists (the learner may have edited it), opens it as it is. */
export async function createSessionsBase(deps: InsightDeps, notify: (message: string) => void): Promise<string | null> {
  const { app, controller, store } = deps;
  const path = `${controller.layout.folder}/sessions.base`;
  try {
    let created = false;
    if (!app.vault.getFileByPath(path)) {
      try {
        await store.create(path, renderSessionsBase(controller.layout.sessions));
        created = true;
      } catch (error) {
        if (!(error instanceof FileExistsError)) throw error;
      }
    }
    const opened = await openFile(app, path);
    if (created) notify(`Created ${path} (needs Obsidian 1.9 or later with the Bases core plugin).`);
    else notify(opened ? `Opened ${path}.` : `${path} exists.`);
    return path;
  } catch (error) {
    console.error("PALEE Sessions: sessions base", error);
    notify(`Could not create ${path}: ${errorMessage(error)}`);
    return null;
  }
}
