import type { Plugin } from "obsidian";
import type { SessionFlows } from "./flows";
import type { SessionController } from "./session-controller";

/**
 * The command palette entries (SPEC §5). Their ids are stable: users bind hotkeys to them. No default
 * hotkeys. Commands that need an open session use checkCallback, so they only appear when they can run.
 */
export function registerCommands(plugin: Plugin, flows: SessionFlows, controller: SessionController): void {
  const whenOpen = (run: () => Promise<void>, mineOnly: boolean) => (checking: boolean): boolean => {
    const open = controller.open;
    if (!open || (mineOnly && !(open.mine && open.running))) return false;
    if (!checking) void run();
    return true;
  };
  plugin.addCommand({ id: "start-session", name: "Start session", callback: () => void flows.start() });
  plugin.addCommand({ id: "save-checkpoint", name: "Save checkpoint", checkCallback: whenOpen(() => flows.checkpoint(), true) });
  plugin.addCommand({ id: "end-session", name: "End session", checkCallback: whenOpen(() => flows.end(), true) });
  plugin.addCommand({ id: "recover-drafts", name: "Recover interrupted sessions", callback: () => void flows.recoverDrafts() });
  plugin.addCommand({ id: "show-status", name: "Show session status", callback: () => void flows.showStatus() });
  plugin.addCommand({ id: "open-working-memory", name: "Open working memory", callback: () => void flows.openWorkingMemory() });
  plugin.addCommand({ id: "open-session-note", name: "Open current session note", checkCallback: whenOpen(() => flows.openSessionNote(), false) });
  plugin.addCommand({ id: "copy-working-memory", name: "Copy working memory to the clipboard", callback: () => void flows.copyWorkingMemory() });
  plugin.addCommand({ id: "rebuild-views", name: "Rebuild working memory and index", callback: () => void flows.rebuild() });
  plugin.addCommand({ id: "import-palee-folder", name: "Import a .palee folder", callback: () => void flows.importFolder() });
}
