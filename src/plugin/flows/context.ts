import type { App } from "obsidian";
import { Notice } from "obsidian";
import type { ObsidianStore } from "../adapters/obsidian-store";
import type { SessionController } from "../session-controller";
import { DailyNoteLog } from "./daily-note";
import { FolderQuiet } from "./sync-quiet";
import type { PaleeSettings } from "../settings";
import { PluginTopicNotes } from "../adapters/topic-notes";
import type { ScheduleMemo } from "../../core/review/topic-schedules";
import { scheduleMemo } from "../../core/review/topic-schedules";
import type { StudyLogMemo } from "../../core/goals";
import { studyLogMemo } from "../../core/goals";

/**
 * What every flow works with: the app, the controller (the only way to the core), the store and the
 * settings, plus the little state that outlives one command. Flows are functions over this context.
 */
export interface FlowContext {
  readonly app: App;
  readonly controller: SessionController;
  readonly store: ObsidianStore;
  readonly settings: () => PaleeSettings;
  readonly notify: (message: string, durationMs?: number) => void;
  /** A notice that stays until dismissed, with one action button (rendered as text). */
  readonly notifyAction: (message: string, label: string, action: () => void) => void;
  /** After end, recovery Save and log: the daily-note line, if the setting is on. Never throws. */
  readonly dailyNote: DailyNoteLog;
  /** Whether the session folder has settled since the vault opened (sync delivers after layout ready). */
  readonly quiet: FolderQuiet;
  /** The vault's topic notes: the plugin's one reader of them (the picker, the doors, every topic name). */
  readonly topicNotes: PluginTopicNotes;
  /** The topics' schedules as of the last queue: the next queue schedules again only the topics that changed. */
  readonly schedules: ScheduleMemo;
  /** The study log behind topic goals as of the last queue, taken forward by the notes added since. */
  readonly studyLogs: StudyLogMemo;
  /** An end is on screen (the end modal) or being saved: a second click must not end twice. */
  ending: boolean;
  /** The plugin was unloaded: an operation still running must not open modals or notices afterwards. */
  disposed: boolean;
  /** On unload: marks the context disposed and takes down the notices whose buttons would act. */
  dispose(): void;
}

export function flowContext(
  app: App,
  controller: SessionController,
  store: ObsidianStore,
  settings: () => PaleeSettings,
  notify = (message: string, durationMs?: number): void => {
    new Notice(message, durationMs);
  },
): FlowContext {
  const topicNotes = new PluginTopicNotes(app, () => controller.layout.folder);
  const dailyNote = new DailyNoteLog(
    app,
    settings,
    notify,
    (topicId, from) => topicNotes.link(topicId, from),
    (topicId, topicNote) => topicNotes.names()(topicId, topicNote),
  );
  const quiet = new FolderQuiet(() => controller.now());
  const withButtons = new Set<Notice>();
  const ctx: FlowContext = {
    app,
    controller,
    store,
    settings,
    notify,
    dailyNote,
    quiet,
    topicNotes,
    schedules: scheduleMemo(),
    studyLogs: studyLogMemo(),
    notifyAction: (message, label, action) => {
      if (!ctx.disposed) actionNotice(withButtons, message, label, () => ctx.disposed || action());
    },
    ending: false,
    disposed: false,
    dispose() {
      ctx.disposed = true;
      for (const notice of withButtons) notice.hide();
      withButtons.clear();
    },
  };
  return ctx;
}

/** The message is plain text; the button is built element by element, never from HTML. */
function actionNotice(shown: Set<Notice>, message: string, label: string, action: () => void): void {
  const notice = new Notice(message, 0);
  shown.add(notice);
  const button = notice.messageEl.createEl("button", { text: label, cls: "palee-notice-action" });
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    button.disabled = true;
    notice.hide();
    shown.delete(notice);
    action();
  });
}
