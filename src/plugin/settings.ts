import { DEFAULT_DAILY_HEADING, normalizeHeading } from "../core/records/daily-note";
import { DEFAULT_SESSION_FOLDER, normalizeSessionFolder } from "../core/records/layout";

/** What the plugin keeps in data.json. `sessionFolder` is also read by the CLI. */
export interface PaleeSettings {
  sessionFolder: string;
  /** Minutes between automatic checkpoints while a session is open; 0 turns them off. */
  checkpointMinutes: number;
  /** Minutes a draft of another device counts as alive; also how recent a checkpoint must be to resume silently. */
  graceMinutes: number;
  askForSummary: boolean;
  /** The end dialog's recall step (contract §5 version 4): what is remembered and a rating; on by default. */
  askRecall: boolean;
  showSeconds: boolean;
  /** Add a line per saved session to the daily note of its start day (off by default). */
  dailyNote: boolean;
  /** The heading in the daily note that the lines go under. */
  dailyNoteHeading: string;
}

export const DEFAULT_SETTINGS: Readonly<PaleeSettings> = Object.freeze({
  sessionFolder: DEFAULT_SESSION_FOLDER,
  checkpointMinutes: 5,
  graceMinutes: 15,
  askForSummary: true,
  askRecall: true,
  showSeconds: true,
  dailyNote: false,
  dailyNoteHeading: DEFAULT_DAILY_HEADING,
});

export const LIMITS = {
  checkpointMinutes: { min: 0, max: 120 },
  graceMinutes: { min: 1, max: 24 * 60 },
} as const;

/**
 * The settings from whatever data.json holds: a fresh object copied from the defaults (never the defaults
 * themselves), each known key taken only when it has the right type and range. Unknown keys are left in the
 * saved data untouched (see `toSaved`), so a newer version's settings survive an older one.
 */
export function settingsFrom(saved: unknown): PaleeSettings {
  const data = isRecord(saved) ? saved : {};
  const settings: PaleeSettings = { ...DEFAULT_SETTINGS };
  if (typeof data.sessionFolder === "string") {
    try {
      settings.sessionFolder = normalizeSessionFolder(data.sessionFolder, { allowDotFolders: false });
    } catch {
      // An unusable saved folder (hand-edited data.json) falls back to the default; the settings tab shows it.
    }
  }
  settings.checkpointMinutes =
    wholeNumberIn(data.checkpointMinutes, LIMITS.checkpointMinutes) ?? settings.checkpointMinutes;
  settings.graceMinutes = wholeNumberIn(data.graceMinutes, LIMITS.graceMinutes) ?? settings.graceMinutes;
  if (intervalProblem(settings.checkpointMinutes, settings.graceMinutes) !== null) {
    // Inconsistent hand-edited values: both back to the defaults (which are consistent).
    settings.checkpointMinutes = DEFAULT_SETTINGS.checkpointMinutes;
    settings.graceMinutes = DEFAULT_SETTINGS.graceMinutes;
  }
  if (typeof data.askForSummary === "boolean") settings.askForSummary = data.askForSummary;
  if (typeof data.showSeconds === "boolean") settings.showSeconds = data.showSeconds;
  if (typeof data.askRecall === "boolean") settings.askRecall = data.askRecall;
  if (typeof data.dailyNote === "boolean") settings.dailyNote = data.dailyNote;
  if (typeof data.dailyNoteHeading === "string") settings.dailyNoteHeading = normalizeHeading(data.dailyNoteHeading);
  return settings;
}

/** What to write to data.json: the saved data with the known keys replaced, unknown keys kept. */
export function toSaved(saved: unknown, settings: PaleeSettings): Record<string, unknown> {
  return { ...(isRecord(saved) ? saved : {}), ...settings };
}

export function wholeNumberIn(value: unknown, range: { min: number; max: number }): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= range.min && n <= range.max ? n : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Automatic checkpoints must come more often than the grace period lasts, or other devices would take a
 * running session for an interrupted one between two checkpoints. Null when the pair is fine.
 */
export function intervalProblem(checkpointMinutes: number, graceMinutes: number): string | null {
  if (checkpointMinutes > 0 && checkpointMinutes >= graceMinutes) {
    return (
      `The checkpoint interval (${checkpointMinutes} min) must be shorter than the recovery grace period ` +
      `(${graceMinutes} min), or other devices would take a running session for an interrupted one.`
    );
  }
  return null;
}
