import type { App, Plugin } from "obsidian";
import { PluginSettingTab, Setting } from "obsidian";
import { errorMessage } from "../../core/errors";
import { DEFAULT_SESSION_FOLDER, normalizeSessionFolder } from "../../core/records/layout";
import { cleanDeviceName } from "../adapters/device";
import type { PaleeSettings } from "../settings";
import { LIMITS, intervalProblem, wholeNumberIn } from "../settings";
import { dailyNoteRows } from "./daily-note-settings";

/** What the settings tab may do; the plugin decides how (save, reconfigure the core, refresh the timer). */
export interface SettingsHost {
  settings(): PaleeSettings;
  update(change: Partial<PaleeSettings>): Promise<void>;
  deviceName(): string;
  setDeviceName(name: string): void;
  /** Non-null when the folder cannot change now (a session is open in the current one). */
  folderLocked(): string | null;
  /** Non-null when the device name cannot change now (this device's session records the current name). */
  deviceLocked(): string | null;
}

/** Checks a session folder typed in settings; returns the normalized folder or the reason it is refused. */
export function checkSessionFolder(raw: string): { folder: string } | { error: string } {
  try {
    return { folder: normalizeSessionFolder(raw, { allowDotFolders: false }) };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

/**
 * One row of the settings tab, shared by both ways Obsidian renders it: the declarative definitions of
 * Obsidian 1.13+ (searchable in the settings search) and display() on older versions.
 */
interface SettingRow {
  name: string;
  desc: string;
  build: (setting: Setting) => void;
}

/** The shape of Obsidian 1.13's SettingDefinitionRender (typed here: minAppVersion is older). */
interface RenderDefinition {
  name: string;
  desc: string;
  render: (setting: Setting) => void;
}

export class PaleeSettingTab extends PluginSettingTab {
  constructor(
    app: App,
    plugin: Plugin,
    private readonly host: SettingsHost,
  ) {
    super(app, plugin);
  }

  /** Obsidian 1.13+: rendered from these (and found by the settings search); display() is not called. */
  getSettingDefinitions(): RenderDefinition[] {
    return this.rows().map((row) => ({
      name: row.name,
      desc: row.desc,
      render: (setting: Setting) => row.build(setting),
    }));
  }

  /** Obsidian before 1.13. */
  display(): void {
    this.containerEl.empty();
    for (const row of this.rows()) row.build(new Setting(this.containerEl).setName(row.name).setDesc(row.desc));
  }

  private rows(): SettingRow[] {
    const { host } = this;
    return [
      {
        name: "Session folder",
        desc: "Where sessions, hot.md and index.md are kept, inside this vault. Hidden (dot) folders cannot be used.",
        build: (setting) => {
          const error = errorLine(setting);
          /** The folder typed, when it can be used now; else the refusal is shown and null returned. */
          const accepted = (value: string): string | null => {
            const checked = checkSessionFolder(value);
            const locked = host.folderLocked();
            const refusal =
              "error" in checked
                ? checked.error
                : locked && checked.folder !== host.settings().sessionFolder
                  ? locked
                  : "";
            error.setText(refusal);
            return "error" in checked || refusal !== "" ? null : checked.folder;
          };
          setting.addText((text) => {
            // Checked on every keystroke, saved only on Enter or leaving the field: each saved folder
            // reconfigures the plugin and syncs, and "s", "st", "stu"… are not folders the learner meant.
            const commit = async (): Promise<void> => {
              const folder = accepted(text.getValue());
              if (folder !== null && folder !== host.settings().sessionFolder)
                await host.update({ sessionFolder: folder });
            };
            text
              .setPlaceholder(DEFAULT_SESSION_FOLDER)
              .setValue(host.settings().sessionFolder)
              .onChange((value) => void accepted(value));
            text.inputEl.addEventListener("change", () => void commit());
            text.inputEl.addEventListener("keydown", (event) => {
              if (event.key === "Enter") void commit();
            });
          });
        },
      },
      this.numberRow(
        "Checkpoint interval",
        "Minutes between automatic checkpoints while a session is open (0 turns them off).",
        "checkpointMinutes",
        LIMITS.checkpointMinutes,
      ),
      this.numberRow(
        "Recovery grace period",
        "Minutes after its last checkpoint during which a session still counts as running: it resumes " +
          "silently here, and another device's session is left alone.",
        "graceMinutes",
        LIMITS.graceMinutes,
      ),
      {
        name: "Device name",
        desc: "Written into your drafts so sessions on other devices are recognized. Kept on this device only.",
        build: (setting) => {
          const error = errorLine(setting);
          setting.addText((text) =>
            text.setValue(host.deviceName()).onChange((value) => {
              const name = cleanDeviceName(value);
              const locked = host.deviceLocked();
              if (name === null) error.setText("The device name must be one line of 1 to 60 characters.");
              else if (locked && name !== host.deviceName()) error.setText(locked);
              else {
                error.setText("");
                host.setDeviceName(name);
              }
            }),
          );
        },
      },
      {
        name: "Ask for a summary",
        desc: "When ending a session, ask for a summary and the next action. Off: end immediately.",
        build: (setting) => {
          setting.addToggle((t) =>
            t.setValue(host.settings().askForSummary).onChange((v) => void host.update({ askForSummary: v })),
          );
        },
      },
      {
        name: "Ask what I remember when ending",
        desc: "The end dialog asks what you remember, without looking, and how well (Again, Hard, Good, Easy).",
        build: (setting) => {
          setting.addToggle((t) =>
            t.setValue(host.settings().askRecall).onChange((v) => void host.update({ askRecall: v })),
          );
        },
      },
      {
        name: "Show seconds",
        desc: "Show seconds in the status bar timer.",
        build: (setting) => {
          setting.addToggle((t) =>
            t.setValue(host.settings().showSeconds).onChange((v) => void host.update({ showSeconds: v })),
          );
        },
      },
      ...dailyNoteRows(host),
    ];
  }

  private numberRow(
    name: string,
    desc: string,
    key: "checkpointMinutes" | "graceMinutes",
    range: { min: number; max: number },
  ): SettingRow {
    return {
      name,
      desc,
      build: (setting) => {
        const error = errorLine(setting);
        setting.addText((text) => {
          text.inputEl.type = "number";
          text.setValue(String(this.host.settings()[key])).onChange(async (value) => {
            const n = wholeNumberIn(value, range);
            const current = this.host.settings();
            const problem =
              n === null
                ? `Enter a whole number from ${range.min} to ${range.max}.`
                : key === "checkpointMinutes"
                  ? intervalProblem(n, current.graceMinutes)
                  : intervalProblem(current.checkpointMinutes, n);
            if (problem !== null || n === null) error.setText(problem ?? "");
            else {
              error.setText("");
              await this.host.update({ [key]: n });
            }
          });
        });
      },
    };
  }
}

/** Where a refused value is explained, under the setting's description. */
function errorLine(setting: Setting): HTMLElement {
  return setting.descEl.createDiv({ cls: "palee-setting-error" });
}
