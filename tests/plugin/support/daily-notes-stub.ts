/**
 * The little of Obsidian's private app state that obsidian-daily-notes-interface reads through `window.app`
 * and `window.moment` (the Daily notes core plugin's options, Periodic Notes, the fold manager), on top of the
 * harness's vault. Only what the library touches; the plugin itself never reads these.
 *
 * Daily notes are always given a template here: the mock's normalizePath("") returns "" where Obsidian's
 * returns "/", which the library relies on to skip a missing template (it would show its own notice).
 */
import { moment } from "obsidian-test-mocks/obsidian";
import type { ObsidianHarness } from "./obsidian-harness";

export const DAILY_TEMPLATE = "templates/daily.md";

export interface DailyNotesSetup {
  /** The core Daily notes plugin, enabled, with these options. */
  core?: { folder?: string; format?: string };
  /** Periodic Notes with daily notes enabled (wins over the core plugin, as in the library). */
  periodic?: { folder?: string; format?: string };
}

export function installDailyNotes(h: ObsidianHarness, setup: DailyNotesSetup): void {
  if (!h.app.vault.getFileByPath(DAILY_TEMPLATE)) h.write(DAILY_TEMPLATE, "# {{title}}\n");
  const periodic = setup.periodic
    ? { settings: { daily: { enabled: true, template: DAILY_TEMPLATE, ...setup.periodic } } }
    : null;
  const global = window as unknown as Record<string, unknown>;
  global.moment = moment;
  global.app = {
    vault: h.app.vault,
    metadataCache: h.app.metadataCache,
    foldManager: { load: () => null, save: () => undefined },
    plugins: { getPlugin: (id: string) => (id === "periodic-notes" ? periodic : null) },
    internalPlugins: {
      plugins: setup.core ? { "daily-notes": { enabled: true } } : {},
      getPluginById: (id: string) =>
        id === "daily-notes" && setup.core
          ? { instance: { options: { template: DAILY_TEMPLATE, ...setup.core } } }
          : null,
    },
  };
}

export function uninstallDailyNotes(): void {
  const global = window as unknown as Record<string, unknown>;
  delete global.app;
  delete global.moment;
}
