import type { App, TFile } from "obsidian";
import { moment, normalizePath } from "obsidian";
import type { Moment } from "moment";
import { appHasDailyNotesPluginLoaded, createDailyNote, getDailyNoteSettings } from "obsidian-daily-notes-interface";
import {
  insertUnderHeading,
  normalizeHeading,
  renderDailyNoteLine,
  sessionLinkTarget,
} from "../../core/records/daily-note";
import { errorMessage } from "../../core/errors";
import type { ConfirmedSession } from "../../core/records/records";
import { recordedDate } from "../../core/time";
import { saveEditors, writeThroughEditor } from "../adapters/open-editors";

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
    /** The topic note as a link showing its name, in the note at `from` (null: the ID is shown). */
    private readonly topicLink: (topicId: string, from: string) => string | null = () => null,
    /** A topic's display name (topics by name, contract §5 version 4). */
    private readonly topicName: (topicId: string, topicNote: string | null) => string = (topicId) => topicId,
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
      const line = renderDailyNoteLine(session, this.topicLink(session.topicId, file.path));
      const heading = normalizeHeading(settings.dailyNoteHeading);
      const insert = (text: string): string => insertUnderHeading(text, heading, line, sessionLinkTarget(session));
      await this.append(file, insert);
    } catch (error) {
      const topic = this.topicName(session.topicId, session.topicNote);
      this.notify(
        `Session on ${topic} saved, but it could not be added to the daily note: ${errorMessage(error)}`,
        10_000,
      );
    }
  }

  /**
   * Through the editor when the note is open in one (the learner may be typing in it: their unsaved text
   * and cursor stay), else in one step with Vault.process.
   */
  private async append(file: TFile, insert: (text: string) => string): Promise<void> {
    const [view] = await saveEditors(this.app, file);
    const disk = view ? await this.app.vault.read(file) : null;
    if (view && disk !== null && view.editor.getValue() === disk) return writeThroughEditor(view, disk, insert(disk));
    await this.app.vault.process(file, insert);
  }

  /** The note at the configured path when it is there (cheap), else one moved in the daily folder, else a new one. */
  private async dailyNoteOf(day: string): Promise<TFile | null> {
    const date = parseDay(day, "YYYY-MM-DD", true);
    if (!date.isValid()) throw new Error(`the session's start day "${day}" is not a date`);
    const { folder = "", format = "YYYY-MM-DD" } = getDailyNoteSettings() ?? {};
    const path = normalizePath(`${folder}/${date.format(format)}.md`);
    const direct = this.app.vault.getFileByPath(path);
    if (direct) return direct;
    // A moved note: one pass over the vault's notes (the library's getAllDailyNotes builds a map of them all).
    const moved = this.app.vault.getMarkdownFiles().find((f) => isDailyNoteOf(f, day, folder, format));
    return moved ?? (await createDailyNote(date)) ?? null;
  }
}

/**
 * A daily note moved within the daily folder: its name parses with the daily format (strictly) as `day`, and
 * it lies in the folder, in a subfolder of it only when the folder is not the vault root (where a same-named
 * note elsewhere, say Meetings/2026-08-14.md, is some other note).
 */
export function isDailyNoteOf(file: TFile, day: string, folder: string, format: string): boolean {
  const root = normalizePath(folder).replace(/^\/+|\/+$/g, "");
  const inFolder = root === "" ? !file.path.includes("/") : file.path.startsWith(`${root}/`);
  if (!inFolder) return false;
  const date = parseDay(file.basename, format.slice(format.lastIndexOf("/") + 1), true);
  return date.isValid() && date.format("YYYY-MM-DD") === day;
}
