import type { App, TFile } from "obsidian";
import { moment, normalizePath } from "obsidian";
import type { Moment } from "moment";
import { appHasDailyNotesPluginLoaded, createDailyNote, getDailyNoteSettings } from "obsidian-daily-notes-interface";
import { insertUnderHeading, normalizeHeading, renderDailyNoteLine, sessionLinkTarget } from "../../core/daily-note";
import { errorMessage } from "../../core/errors";
import type { ConfirmedSession } from "../../core/records";
import { recordedDate } from "../../core/time";

/** Obsidian's bundled moment (kept external: main.js does not ship its own); typed as the call it is. */
const parseDay = moment as unknown as (text: string, format: string, strict: boolean) => Moment;

export interface DailyNoteSettings {
  dailyNote: boolean;
  dailyNoteHeading: string;
}

/**
 * Adds a saved session's line to the daily note of the day it started (contract §5), found or created the way
 * the learner's Daily notes or Periodic Notes plugin is set up (obsidian-daily-notes-interface). Called after
 * end, recovery Save and (when it exists) log: the session note is already saved, so nothing here throws —
 * a failure is a notice.
 */
export class DailyNoteLog {
  private toldNotSetUp = false;

  constructor(
    private readonly app: App,
    private readonly settings: () => DailyNoteSettings,
    private readonly notify: (message: string, durationMs?: number) => void,
  ) {}

  async add(session: ConfirmedSession): Promise<void> {
    const settings = this.settings();
    if (!settings.dailyNote) return;
    try {
      if (!appHasDailyNotesPluginLoaded()) {
        if (!this.toldNotSetUp) {
          this.notify(
            "Daily notes are not set up: turn on the Daily notes core plugin (or Periodic Notes) to log " +
              "sessions there. Nothing was added.",
            10_000,
          );
          this.toldNotSetUp = true;
        }
        return;
      }
      const file = await this.dailyNoteOf(recordedDate(session.startedAt));
      if (!file) throw new Error("the daily note could not be created");
      const line = renderDailyNoteLine(session);
      const heading = normalizeHeading(settings.dailyNoteHeading);
      await this.app.vault.process(file, (text) => insertUnderHeading(text, heading, line, sessionLinkTarget(session)));
    } catch (error) {
      this.notify(
        `Session on ${session.topicId} saved, but it could not be added to the daily note: ${errorMessage(error)}`,
        10_000,
      );
    }
  }

  /** The note at the configured path when it is there (cheap), else the library's search, else a new one. */
  private async dailyNoteOf(day: string): Promise<TFile | null> {
    const date = parseDay(day, "YYYY-MM-DD", true);
    if (!date.isValid()) throw new Error(`the session's start day "${day}" is not a date`);
    const { folder = "", format = "YYYY-MM-DD" } = getDailyNoteSettings() ?? {};
    const path = normalizePath(`${folder}/${date.format(format)}.md`);
    const direct = this.app.vault.getFileByPath(path);
    if (direct) return direct;
    // A note of that name moved elsewhere in the daily folder. (The library's own search, getAllDailyNotes,
    // costs 2.5 KB of main.js, over the size budget; this covers the same case by name.)
    const name = path.slice(path.lastIndexOf("/") + 1);
    const inFolder = folder === "" ? "" : `${normalizePath(folder)}/`;
    const moved = this.app.vault.getMarkdownFiles().find((f) => f.name === name && f.path.startsWith(inFolder));
    return moved ?? (await createDailyNote(date)) ?? null;
  }
}
