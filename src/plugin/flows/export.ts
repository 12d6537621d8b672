/**
 * The CSV export in the plugin (contract §4a export, §5): `export-sessions` writes a new CSV into the vault
 * and says where it is and how to open it; `copy-sessions-csv` puts the same text on the clipboard. A CSV in
 * the vault is easy to lose sight of: Obsidian lists `.csv` files only with "Detect all file extensions" on,
 * and Obsidian Sync copies them only with "All other file types" on.
 */
import { Notice, Platform } from "obsidian";
import type { App } from "obsidian";
import { FileExistsError, errorMessage } from "../../core/errors";
import { renderExportCsv } from "../../core/insight/export";
import type { FlowContext } from "./context";

/** How long the export notice stays: it carries a path to find and, on desktop, buttons. */
const EXPORT_NOTICE_MS = 20_000;

/** Why the exported file may not show, and how to open it anyway. */
export const CSV_VISIBILITY =
  "Obsidian lists .csv files only with Settings → Files and links → Detect all file extensions on, and " +
  "Obsidian Sync copies them only with All other file types on in its settings. Open it with a spreadsheet " +
  "from the vault folder, or use Copy sessions as CSV to paste it anywhere.";

/** `<folder>/exports/sessions-<today>.csv`, or `…-2.csv`, `…-3.csv` when taken: never replaces a file. */
export async function exportSessions(ctx: FlowContext): Promise<string | null> {
  const { controller, store } = ctx;
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
      const left = leftOut(skipped);
      exportedNotice(ctx.app, `Exported ${rows.length} session(s) to ${path}.${left} ${CSV_VISIBILITY}`, path);
      return path;
    }
    ctx.notify(`Could not export: ${base}.csv and 998 numbered copies already exist.`, EXPORT_NOTICE_MS);
  } catch (error) {
    console.error("PALEE Sessions: export", error);
    ctx.notify(`Could not export the sessions: ${errorMessage(error)}`, EXPORT_NOTICE_MS);
  }
  return null;
}

/** The sentence an export or copy adds when some notes could not be read (empty when all could). */
function leftOut(skipped: readonly unknown[]): string {
  return skipped.length > 0 ? ` ${skipped.length} unreadable note(s) left out: the history view lists them.` : "";
}

/** Every confirmed session as CSV on the clipboard (the same text as the export), nothing written. */
export async function copySessionsCsv(ctx: FlowContext): Promise<boolean> {
  try {
    const { rows, skipped } = await ctx.controller.exportRows();
    await navigator.clipboard.writeText(renderExportCsv(rows));
    ctx.notify(`Copied ${rows.length} session(s) as CSV to the clipboard.${leftOut(skipped)}`);
    return true;
  } catch (error) {
    console.error("PALEE Sessions: copy as CSV", error);
    ctx.notify(`Could not copy the sessions as CSV: ${errorMessage(error)}`, EXPORT_NOTICE_MS);
    return false;
  }
}

/**
 * What the desktop app can do with a file outside Obsidian. Not in the public API (obsidian.d.ts has neither),
 * so each is used only when the running app has it, on desktop, and never through Node or Electron.
 */
interface DesktopFileActions {
  showInFolder?: (path: string) => unknown;
  openWithDefaultApp?: (path: string) => unknown;
}

/** The export notice; on desktop, with "Show in system explorer" and "Open" when the app offers them. */
function exportedNotice(app: App, message: string, path: string): void {
  const notice = new Notice(message, EXPORT_NOTICE_MS);
  if (!Platform.isDesktopApp) return;
  const desktop = app as unknown as DesktopFileActions;
  const offer = (label: string, name: keyof DesktopFileActions): void => {
    const run = name in desktop ? desktop[name] : undefined;
    if (typeof run !== "function") return;
    const button = notice.messageEl.createEl("button", { text: label, cls: "palee-notice-action" });
    button.addEventListener("click", (event) => {
      event.stopPropagation();
      notice.hide();
      try {
        void Promise.resolve(run.call(app, path)).catch((error: unknown) => failedToShow(path, error));
      } catch (error) {
        failedToShow(path, error);
      }
    });
  };
  offer("Show in system explorer", "showInFolder");
  offer("Open", "openWithDefaultApp");
}

function failedToShow(path: string, error: unknown): void {
  console.error("PALEE Sessions: show the export", error);
  new Notice(`Could not show ${path}: ${errorMessage(error)}`, EXPORT_NOTICE_MS);
}
