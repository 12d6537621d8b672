import type { App } from "obsidian";
import { Menu, Notice, TFile } from "obsidian";
import { ConflictError, PaleeError, errorMessage } from "../core/errors";
import { classifyRecord } from "../core/frontmatter";
import { normalizeTopic, topicIdForNote } from "../core/ids";
import type { ConfirmedSession, Draft } from "../core/records";
import { isAliveElsewhere, saveGroup, savePlanOf } from "../core/recovery";
import type { OpenSession, RecoverAction, RecoverResult, StartOptions } from "../core/sessions";
import { durationMinutes, formatElapsed } from "../core/time";
import { ConfirmModal } from "./confirm-modal";
import { EndSessionModal } from "./end-modal";
import { DailyNoteLog } from "./flows/daily-note";
import type { ImportReport } from "./import-palee";
import { describeImport, importPaleeFolder } from "./import-palee";
import type { ObsidianStore } from "./obsidian-store";
import type { RecoveryRow } from "./recovery-modal";
import { RecoveryModal } from "./recovery-modal";
import type { SessionController } from "./session-controller";
import type { PaleeSettings } from "./settings";
import type { TopicChoice } from "./topic-picker";
import { TopicPickerModal } from "./topic-picker";

/** Notices stay up longer when they carry something to act on. */
const LONG_NOTICE_MS = 10_000;

/** "14:05" for a recorded time today, else "2026-08-14 14:05": the time as it was recorded. */
export function displayTime(recorded: string | null, today: string): string {
  if (!recorded) return "unknown";
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(recorded.trim());
  if (!match) return recorded;
  return match[1] === today ? match[2] : `${match[1]} ${match[2]}`;
}

/** One clear sentence for a failure (SPEC §4 errors): conflicts say what changed and what to do. */
export function describeFailure(what: string, error: unknown): string {
  if (error instanceof ConflictError && error.savedSession) {
    return `Session saved as ${error.savedSession}, but ${error.path} changed on another device or in an editor while it was being updated. Run "Rebuild working memory and index" to refresh it.`;
  }
  if (error instanceof ConflictError) return `Could not ${what}: ${error.path} changed on another device or in an editor. Try again.`;
  if (error instanceof PaleeError && error.kind === "no_open_session") return `Could not ${what}: no session is open.`;
  if (error instanceof PaleeError) return `Could not ${what}: ${error.message}`;
  return `Could not ${what}: unexpected error (${errorMessage(error)})`;
}

/**
 * What the commands, the ribbon and the status bar do: the steps a learner goes through (pick a topic,
 * confirm, recover), translated into core operations through the controller, with a notice for every
 * outcome and every failure. No session rules live here.
 */
export class SessionFlows {
  private lastAutoError: string | null = null;
  private autoRunning = false;
  private lastAutoAttempt = 0;
  /** An end is on screen (the end modal) or being saved: a second click must not end twice. */
  private ending = false;
  private disposed = false;
  private dailyNote: DailyNoteLog | null = null;

  constructor(
    private readonly app: App,
    private readonly controller: SessionController,
    private readonly store: ObsidianStore,
    private readonly settings: () => PaleeSettings,
    private readonly notify: (message: string, durationMs?: number) => void = (message, durationMs) => {
      new Notice(message, durationMs);
    },
  ) {}

  private today(): string {
    return this.controller.today();
  }

  /** After end, recovery Save and (to come) log: the daily-note line, if the setting is on. Never throws. */
  addToDailyNote(session: ConfirmedSession): Promise<void> {
    this.dailyNote ??= new DailyNoteLog(this.app, this.settings, this.notify);
    return this.dailyNote.add(session);
  }

  private fail(what: string, error: unknown): void {
    if (!(error instanceof PaleeError)) console.error("PALEE Sessions:", error);
    this.notify(describeFailure(what, error), LONG_NOTICE_MS);
  }

  /** Three warnings, then a count; `all` (the rebuild the count points to) shows every one. */
  private warn(warnings: readonly string[], all = false): void {
    if (warnings.length === 0) return;
    const limit = all ? warnings.length : 3;
    const shown = warnings.slice(0, limit).join("\n");
    const more = warnings.length > limit ? `\n…and ${warnings.length - limit} more (rebuild working memory and index to see the whole list)` : "";
    this.notify(`PALEE Sessions:\n${shown}${more}`, LONG_NOTICE_MS);
  }

  // ---- start ---------------------------------------------------------------------------------------

  /** Ribbon: end the session running here, or start one. */
  toggle(): Promise<void> {
    const open = this.controller.open;
    return open && open.mine && open.running ? this.end() : this.start();
  }

  async start(): Promise<void> {
    const open = this.controller.open;
    if (open && !open.running) return this.recoverInterrupted(() => void this.start());
    if (open) {
      this.notify(this.alreadyOpenText(open.session));
      return;
    }
    let choices: TopicChoice[];
    try {
      choices = await this.topicChoices();
    } catch (error) {
      this.fail("list your topics", error);
      return;
    }
    new TopicPickerModal(this.app, choices, (choice) => void this.startWith(choice)).open();
  }

  private alreadyOpenText(open: OpenSession): string {
    const since = displayTime(open.startedAt, this.today());
    const mine = open.device === null || open.device === this.controller.device;
    return mine
      ? `A session on ${open.topicId} is already open (since ${since}). End it first.`
      : `A session on ${open.topicId} is open on ${open.device ?? "another device"} (since ${since}). End it there first.`;
  }

  /** The picker's lines: the active note first, then topic notes, then topics of past sessions. */
  async topicChoices(): Promise<TopicChoice[]> {
    const choices: TopicChoice[] = [];
    const seen = new Set<string>();
    const folder = `${this.controller.layout.folder}/`;
    const active = this.app.workspace.getActiveFile();
    const activeTopic = active ? this.topicOfNote(active) : null;
    if (active && active.extension === "md" && !active.path.startsWith(folder)) {
      if (activeTopic) {
        choices.push({ kind: "topic-note", topicId: activeTopic, notePath: active.path, noteName: active.basename });
        seen.add(activeTopic);
      } else {
        choices.push({ kind: "use-current-note", notePath: active.path, noteName: active.basename });
      }
    }
    for (const file of this.app.vault.getMarkdownFiles()) {
      if (file.path.startsWith(folder) || file === active) continue;
      const topicId = this.topicOfNote(file);
      if (topicId && !seen.has(topicId)) {
        seen.add(topicId);
        choices.push({ kind: "topic-note", topicId, notePath: file.path, noteName: file.basename });
      }
    }
    for (const topicId of await this.controller.pastTopics()) {
      if (!seen.has(topicId)) {
        seen.add(topicId);
        choices.push({ kind: "past-topic", topicId });
      }
    }
    return choices;
  }

  /** A note's palee_id: any non-empty text (SPEC §2 accepts legacy IDs read from notes). */
  private topicOfNote(file: TFile): string | null {
    const frontmatter: unknown = this.app.metadataCache.getFileCache(file)?.frontmatter;
    return frontmatter !== null && typeof frontmatter === "object" ? normalizeTopic((frontmatter as Record<string, unknown>).palee_id) : null;
  }

  private linkTo(path: string): string | null {
    const file = this.app.vault.getFileByPath(path);
    return file ? `[[${this.app.metadataCache.fileToLinktext(file, "", true)}]]` : null;
  }

  async startWith(choice: TopicChoice): Promise<void> {
    switch (choice.kind) {
      case "new-topic":
        if (!choice.valid) {
          this.notify(`"${choice.topicId}" is not a valid topic ID: use T- followed by letters, digits, ".", "_" or "-" (e.g. T-rust-ownership).`);
          return;
        }
        return this.startSession({ topic: choice.topicId });
      // Topics read from notes and past sessions may be legacy IDs: they are not validated as new input.
      case "past-topic":
        return this.startSession({ activeNoteTopic: choice.topicId });
      case "topic-note":
        return this.startSession({ activeNoteTopic: choice.topicId, topicNote: this.linkTo(choice.notePath) });
      case "use-current-note":
        return this.useNoteAsTopic(choice.notePath);
    }
  }

  /** Writes palee_id into the note's properties after the learner confirms, then starts on that topic. */
  async useNoteAsTopic(notePath: string): Promise<void> {
    const file = this.app.vault.getFileByPath(notePath);
    if (!file) {
      this.notify(`${notePath} no longer exists.`);
      return;
    }
    const topicId = topicIdForNote(file.basename, this.controller.now(), this.controller.random);
    const yes = await new Promise<boolean>((resolve) =>
      new ConfirmModal(
        this.app,
        "Use this note as a topic?",
        `"${file.basename}" gets the property palee_id: ${topicId}, and a session on it starts now.`,
        "Use as topic",
        resolve,
      ).open(),
    );
    if (!yes) return;
    let chosen = topicId;
    let parsed = false;
    try {
      await this.app.fileManager.processFrontMatter(file, (frontmatter: Record<string, unknown>) => {
        parsed = true;
        const existing = normalizeTopic(frontmatter.palee_id);
        // It has a topic already (another device, or a legacy ID): keep it rather than overwrite it.
        if (existing !== null) chosen = existing;
        else frontmatter.palee_id = topicId;
      });
    } catch (error) {
      // The properties were read, so writing the note failed (disk, sync): not something to fix in them.
      if (parsed) {
        this.fail(`add palee_id to "${file.basename}"`, error);
        return;
      }
      // processFrontMatter throws on YAML it cannot parse, and nothing is written then.
      const reason = errorMessage(error).split("\n")[0].trim();
      this.notify(`Could not add palee_id to "${file.basename}": its properties could not be read (${reason}). Fix them, or pick a topic instead.`, LONG_NOTICE_MS);
      return;
    }
    await this.startSession(chosen === topicId ? { topic: chosen, topicNote: this.linkTo(file.path) } : { activeNoteTopic: chosen, topicNote: this.linkTo(file.path) });
  }

  /** Starts; pending drafts are offered for recovery first, then the start goes on with what is left. */
  async startSession(options: StartOptions, ignored: ReadonlySet<string> = new Set()): Promise<void> {
    try {
      const result = await this.controller.start({ ...options, ignoreDrafts: ignored });
      switch (result.status) {
        case "started":
          this.notify(`Session on ${result.topicId} started.`);
          this.warn(result.warnings);
          return;
        case "already_open":
        case "kept":
          this.notify(this.alreadyOpenText(result.open));
          return;
        case "drafts_pending":
          this.openRecovery(result.drafts, (_decided, resumed) => {
            if (resumed) return; // the learner chose to continue an old session instead
            // Whatever was not saved or discarded was left for later (Ignore, or the modal closed): the start
            // goes on without offering those drafts again.
            void this.startSession(options, new Set([...ignored, ...result.drafts.map((d) => d.draftId)]));
          });
          return;
      }
    } catch (error) {
      this.fail("start the session", error);
    }
  }

  // ---- checkpoint ------------------------------------------------------------------------------------

  async checkpoint(): Promise<void> {
    try {
      const result = await this.controller.checkpoint();
      const open = this.controller.open;
      const elapsed = open ? ` · ${formatElapsed(this.controller.now() - open.startedMs, false)}` : "";
      this.notify(`Checkpoint saved (${result.draft.topicId}${elapsed}).`);
      this.warn(result.warnings);
    } catch (error) {
      this.fail("save the checkpoint", error);
    }
  }

  /** On every tick: checkpoints this device's session when one is due. A repeated failure is shown once. */
  async autoCheckpoint(): Promise<void> {
    // Also while the end modal is open: the session runs until the learner confirms (plugin calls are
    // serialized, and a checkpoint that comes after the end is dropped quietly below).
    const now = this.controller.now();
    if (this.autoRunning || !this.controller.checkpointDue(now)) return;
    // After a failure, retry once a minute, not on every tick.
    if (this.lastAutoError !== null && now - this.lastAutoAttempt < 60_000 && now >= this.lastAutoAttempt) return;
    this.autoRunning = true;
    this.lastAutoAttempt = now;
    try {
      await this.controller.checkpoint();
      this.lastAutoError = null;
    } catch (error) {
      // The session ended or was recovered meanwhile (another window, a click that came first): nothing to do.
      if (error instanceof PaleeError && error.kind === "no_open_session") return;
      const message = describeFailure("save the automatic checkpoint", error);
      if (message !== this.lastAutoError) this.notify(message, LONG_NOTICE_MS);
      this.lastAutoError = message;
    } finally {
      this.autoRunning = false;
    }
  }

  // ---- end ---------------------------------------------------------------------------------------

  async end(): Promise<void> {
    const open = this.controller.open;
    if (!open) {
      this.notify("No session is open.");
      return;
    }
    if (!open.running) return this.recoverInterrupted();
    if (!open.mine) {
      this.notify(`The session on ${open.session.topicId} is open on ${open.session.device ?? "another device"}: end it there.`);
      return;
    }
    if (this.ending) return; // a second click while the first end is on screen or being saved
    if (!this.settings().askForSummary) return this.endWith(null, null);
    const now = this.controller.now();
    this.ending = true;
    new EndSessionModal(
      this.app,
      {
        topicId: open.session.topicId,
        startedText: displayTime(open.session.startedAt, this.today()),
        durationMinutes: durationMinutes(open.startedMs, now),
      },
      (input) => void this.endWith(input.summary, input.nextAction, open.session),
      () => (this.ending = false),
    ).open();
  }

  /** `shown`: the session the end modal showed (it may have ended elsewhere while the modal was open). */
  async endWith(summary: string | null, nextAction: string | null, shown?: OpenSession): Promise<void> {
    if (this.ending && !shown) return;
    this.ending = true;
    try {
      const result = await this.controller.end(summary, nextAction, shown);
      const { session } = result;
      this.notify(
        result.alreadySaved
          ? `Session on ${session.topicId} was already saved (${session.durationMinutes} min).`
          : `Session on ${session.topicId} saved (${session.durationMinutes} min).`,
      );
      this.warn(result.warnings);
      await this.addToDailyNote(session);
    } catch (error) {
      this.fail("end the session", error);
    } finally {
      this.ending = false;
    }
  }

  /**
   * This device's open session was interrupted (the app closed without ending it): the learner decides,
   * in the recovery modal, before anything else happens to it. `then` runs once it is no longer open
   * (saved or discarded); a resumed session simply continues.
   */
  private async recoverInterrupted(then?: () => void): Promise<void> {
    const open = this.controller.open;
    if (!open) return;
    try {
      const result = await this.controller.openVault();
      const drafts = result.pending;
      if (!drafts.some((d) => d.draftId === open.session.draftId)) {
        this.notify(`The session on ${open.session.topicId} (${open.session.device ?? "unknown device"}) cannot be recovered here yet: its draft is not readable.`);
        return;
      }
      this.openRecovery(drafts, (decided, resumed) => {
        if (resumed) return;
        if (decided.has(open.session.draftId) && !this.controller.open) then?.();
        else if (this.controller.open && !this.controller.open.running) {
          this.notify(`The interrupted session on ${open.session.topicId} is still open: resume, save or discard it first.`);
        }
      });
    } catch (error) {
      this.fail("list the interrupted sessions", error);
    }
  }

  // ---- recovery ------------------------------------------------------------------------------------

  /** When the vault opens (after layout ready): continue, report, or ask (SPEC §5). */
  /**
   * A session note was renamed. The open session's draft is only found under its own name (DRAFT-S-….md):
   * say so at once, rather than let the session end silently at the next checkpoint.
   */
  noteRenamed(oldPath: string, newPath: string): void {
    const open = this.controller.open;
    if (!open || oldPath !== `${this.controller.layout.sessions}/${open.session.draftId}.md`) return;
    this.notify(
      `The note of your open session on ${open.session.topicId} was renamed to "${newPath}". PALEE Sessions only finds it as ${open.session.draftId}.md: rename it back to keep the session (its notes are safe either way).`,
      LONG_NOTICE_MS,
    );
  }

  /** The plugin was unloaded: an operation still running must not open modals or notices afterwards. */
  dispose(): void {
    this.disposed = true;
  }

  async onVaultOpen(): Promise<void> {
    try {
      const result = await this.controller.openVault();
      if (this.disposed) return;
      const today = this.today();
      if (result.resumed) {
        this.notify(`Resumed your session on ${result.resumed.topicId} (started ${displayTime(result.resumed.startedAt, today)}).`);
      }
      if (result.openElsewhere) {
        this.notify(`A session on ${result.openElsewhere.topicId} is open on ${result.openElsewhere.device ?? "another device"} (since ${displayTime(result.openElsewhere.startedAt, today)}).`);
      }
      this.warn(result.warnings);
      if (result.pending.length > 0) this.openRecovery(result.pending);
    } catch (error) {
      this.fail("check for interrupted sessions", error);
    }
  }

  async recoverDrafts(): Promise<void> {
    try {
      const result = await this.controller.openVault();
      this.warn(result.warnings);
      if (result.pending.length === 0) this.notify("No interrupted sessions to recover.");
      else this.openRecovery(result.pending);
    } catch (error) {
      this.fail("list the interrupted sessions", error);
    }
  }

  recoveryRows(drafts: readonly Draft[]): RecoveryRow[] {
    const now = this.controller.now();
    const today = this.today();
    const graceMs = this.settings().graceMinutes * 60_000;
    const device = this.controller.device;
    const openDraft = this.controller.open?.session.draftId;
    return drafts.map((draft) => ({
      draftId: draft.draftId,
      topicId: draft.topicId,
      device: draft.device ?? "unknown device",
      startedText: displayTime(draft.startedAt, today),
      lastSeenText: displayTime(draft.lastCheckpointAt, today),
      // Save records the draft together with its sync-conflict copies (the core's rule), so the preview does too.
      saveMinutes: savePlanOf(saveGroup(draft, drafts, device, now, graceMs, openDraft), now).durationMinutes,
      aliveElsewhere: isAliveElsewhere(draft, device, now, graceMs),
    }));
  }

  openRecovery(drafts: readonly Draft[], onFinished?: (decided: ReadonlySet<string>, resumed: boolean) => void): void {
    let resumed = false;
    // A draft's row as it reads now, next to the others shown (Save's preview counts its sync-conflict copies;
    // the stale version of the same draft among them is not one: copiesOf keeps the first of each ID).
    const rowOf = (draft: Draft): RecoveryRow => this.recoveryRows([draft, ...drafts])[0];
    new RecoveryModal(
      this.app,
      this.recoveryRows(drafts),
      async (row, action) => {
        try {
          if (action !== "ignore" && !row.aliveElsewhere) {
            // The modal may have been open for a while: another device may have taken the draft up since.
            const now = await this.controller.draft(row.draftId);
            const graceMs = this.settings().graceMinutes * 60_000;
            if (now && isAliveElsewhere(now, this.controller.device, this.controller.now(), graceMs)) {
              this.notify(`${row.topicId} is now open on ${now.device ?? "another device"} (last seen ${displayTime(now.lastCheckpointAt, this.today())}). Press ${action} again to ${action} it anyway.`, LONG_NOTICE_MS);
              return { changed: rowOf(now) };
            }
            const fresh = now ? rowOf(now) : null;
            if (fresh && (fresh.saveMinutes !== row.saveMinutes || fresh.lastSeenText !== row.lastSeenText || fresh.device !== row.device)) {
              // It was checkpointed since the row was drawn (another device, sync): decide on what it is now.
              this.notify(`${row.topicId} changed since this list was shown: check it, then press ${action} again.`, LONG_NOTICE_MS);
              return { changed: fresh };
            }
          }
          const result = await this.controller.recover(row.draftId, action);
          if (result.status === "resumed") resumed = true;
          this.warn(result.warnings);
          if (result.status === "saved") await this.addToDailyNote(result.session);
          return this.recoveredText(result, action);
        } catch (error) {
          this.fail(`${action} ${row.draftId}`, error);
          return null;
        }
      },
      (decided) => onFinished?.(decided, resumed),
    ).open();
  }

  private recoveredText(result: RecoverResult, action: RecoverAction): string {
    switch (result.status) {
      case "resumed":
        return `Resumed: the timer continues from ${displayTime(result.open.startedAt, this.today())}.`;
      case "saved":
        return result.alreadySaved
          ? `Was already saved as ${result.session.sessionId}.`
          : `Saved as ${result.session.sessionId} (${result.session.durationMinutes} min).`;
      case "discarded":
        return result.alreadySavedIn ? `Was already saved in ${result.alreadySavedIn}.` : "Moved to the trash.";
      case "ignored":
        return action === "ignore" ? "Left for later." : "Unchanged.";
    }
  }

  // ---- views and files -----------------------------------------------------------------------------

  async showStatus(): Promise<void> {
    try {
      const open = await this.controller.refresh();
      if (!open) {
        this.notify("No session is open.");
        return;
      }
      const today = this.today();
      const { session } = open;
      this.notify(
        `${session.topicId}: ${formatElapsed(this.controller.now() - open.startedMs, true)} so far\n` +
          `Started ${displayTime(session.startedAt, today)} on ${session.device ?? "unknown device"}\n` +
          `Last checkpoint ${displayTime(session.lastCheckpointAt, today)}`,
        LONG_NOTICE_MS,
      );
    } catch (error) {
      this.fail("read the session status", error);
    }
  }

  async rebuild(): Promise<void> {
    try {
      const result = await this.controller.rebuild();
      this.notify(`Rebuilt working memory and index from ${result.totalConfirmed} session${result.totalConfirmed === 1 ? "" : "s"}.`);
      this.warn([...result.skipped.map((s) => `skipped ${s.path}: ${s.reason}`), ...result.warnings], true);
    } catch (error) {
      this.fail("rebuild working memory and index", error);
    }
  }

  async openWorkingMemory(): Promise<void> {
    try {
      if ((await this.controller.readWorkingMemory()) === null) await this.controller.rebuild();
      await this.openPath(this.controller.layout.hot);
    } catch (error) {
      this.fail("open the working memory", error);
    }
  }

  async openSessionNote(): Promise<void> {
    const open = this.controller.open;
    if (!open) {
      this.notify("No session is open.");
      return;
    }
    await this.openPath(`${this.controller.layout.sessions}/${open.session.draftId}.md`);
  }

  private async openPath(path: string): Promise<void> {
    const file = this.app.vault.getFileByPath(path);
    if (!(file instanceof TFile)) {
      this.notify(`${path} does not exist (yet).`);
      return;
    }
    await this.app.workspace.getLeaf(false).openFile(file);
  }

  async copyWorkingMemory(): Promise<void> {
    try {
      const read = classifyRecord(await this.controller.readWorkingMemory());
      if (read.state !== "ok" && read.state !== "no-frontmatter") {
        this.notify("There is no working memory to copy yet.");
        return;
      }
      await navigator.clipboard.writeText(read.body.trim());
      this.notify("Working memory copied to the clipboard.");
    } catch (error) {
      this.fail("copy the working memory", error);
    }
  }

  async importFolder(): Promise<void> {
    let report: ImportReport;
    try {
      report = await importPaleeFolder(this.app.vault.adapter, this.store, this.controller.layout, await this.controller.absorbedDrafts());
      if (report.copied.length > 0) await this.controller.rebuild();
    } catch (error) {
      this.fail("import the .palee folder", error);
      return;
    }
    this.notify(describeImport(report, this.controller.layout.sessions), LONG_NOTICE_MS);
    if (report.copied.some((p) => p.slice(p.lastIndexOf("/") + 1).startsWith("DRAFT-S-"))) await this.recoverDrafts();
  }

  // ---- status bar --------------------------------------------------------------------------------------

  /** Status bar click: start when idle; otherwise a menu with checkpoint / open session note / end. */
  statusBarClick(event: MouseEvent): void {
    const open = this.controller.open;
    if (!open || !open.running) {
      void this.start();
      return;
    }
    // The same rule as the commands: only this device's running session is checkpointed or ended here.
    const here = open.mine;
    const menu = new Menu();
    if (here) menu.addItem((item) => item.setTitle("Save checkpoint").setIcon("save").onClick(() => void this.checkpoint()));
    menu.addItem((item) => item.setTitle("Open session note").setIcon("file-text").onClick(() => void this.openSessionNote()));
    if (here) menu.addItem((item) => item.setTitle("End session").setIcon("square").onClick(() => void this.end()));
    else menu.addItem((item) => item.setTitle("Show session status").setIcon("info").onClick(() => void this.showStatus()));
    menu.showAtMouseEvent(event);
  }
}
