import type { Setting } from "obsidian";
import { DEFAULT_DAILY_HEADING, normalizeHeading } from "../../core/records/daily-note";
import type { PaleeSettings } from "../settings";

interface Host {
  settings(): PaleeSettings;
  update(change: Partial<PaleeSettings>): Promise<void>;
}

/** The settings tab's daily-note rows (contract §5), in the tab's row shape. */
export function dailyNoteRows(host: Host): Array<{ name: string; desc: string; build: (setting: Setting) => void }> {
  return [
    {
      name: "Log sessions in the daily note",
      desc:
        "When a session is saved, add a line with its times, topic and length to the daily note of the day " +
        "it started. Uses your Daily notes (or Periodic Notes) settings.",
      build: (setting) => {
        setting.addToggle((t) =>
          t.setValue(host.settings().dailyNote).onChange((v) => void host.update({ dailyNote: v })),
        );
      },
    },
    {
      name: "Daily note heading",
      desc: "The heading the lines go under; it is added at the end of the note when missing.",
      build: (setting) => {
        setting.addText((text) =>
          text
            .setPlaceholder(DEFAULT_DAILY_HEADING)
            .setValue(host.settings().dailyNoteHeading)
            .onChange((value) => void host.update({ dailyNoteHeading: normalizeHeading(value) })),
        );
      },
    },
  ];
}
