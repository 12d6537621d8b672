import type { App } from "obsidian";
import { Modal, Setting } from "obsidian";
import type { RecoverAction } from "../../core/sessions";
import { formatDuration } from "../../core/time";

/** One draft as the recovery modal shows it: everything needed to decide, as plain text. */
export interface RecoveryRow {
  draftId: string;
  topicId: string;
  /** The topic as shown: its note's name, else its ID (contract §5 version 4, topics by name). */
  topic: string;
  device: string;
  startedText: string;
  lastSeenText: string;
  /** What Save would record. */
  saveMinutes: number;
  /** Alive on another device right now: shown so the learner does not take it over by accident. */
  aliveElsewhere: boolean;
  /** Another device's draft while sync may still be delivering (after start-up): its end may be on the way. */
  unsynced: boolean;
}

/**
 * What a choice did: the text that replaces the row; null (failed, the row stays); or the draft changed
 * since the row was drawn (the row is redrawn with what it is now, and the learner decides again).
 */
export type RecoveryOutcome = string | null | { changed: RecoveryRow };

/**
 * Interrupted drafts, one row each, with Resume / Save / Discard / Ignore. `act` performs the choice and
 * returns the text that replaces the row (or throws; the flow shows the error and the row stays). Closing
 * the modal leaves every undecided draft untouched (Ignore).
 */
export class RecoveryModal extends Modal {
  private busy = false;
  private resumed = false;
  private readonly done = new Set<string>();

  constructor(
    app: App,
    private rows: readonly RecoveryRow[],
    private readonly act: (row: RecoveryRow, action: RecoverAction) => Promise<RecoveryOutcome>,
    private readonly onFinished: (decided: ReadonlySet<string>) => void,
  ) {
    super(app);
  }

  onOpen(): void {
    const count = this.rows.length;
    this.titleEl.setText(count === 1 ? "Recover an interrupted session" : `Recover ${count} interrupted sessions`);
    this.contentEl.createEl("p", {
      text:
        "These sessions were not ended. Resume continues the timer from its start; Save records it up to its " +
        "last checkpoint; Discard moves the draft to the trash; Ignore leaves it for later.",
    });
    for (const row of this.rows) this.renderRow(row);
  }

  onClose(): void {
    this.contentEl.empty();
    this.onFinished(this.done);
  }

  private renderRow(row: RecoveryRow): void {
    const container = this.contentEl.createDiv({ cls: "palee-recovery-row" });
    container.dataset.draftId = row.draftId;
    this.fillRow(container, row);
  }

  private fillRow(container: HTMLElement, row: RecoveryRow): void {
    const setting = new Setting(container)
      .setName(row.topic)
      .setDesc(
        `${row.aliveElsewhere ? "Open right now on" : "On"} ${row.device} · started ${row.startedText} · ` +
          `last seen ${row.lastSeenText} · Save records ${formatDuration(row.saveMinutes)}` +
          (row.unsynced ? " · may not be synced yet" : ""),
      );
    const actions: Array<[RecoverAction, string]> = [
      ["resume", "Resume"],
      ["save", "Save"],
      ["discard", "Discard"],
      ["ignore", "Ignore"],
    ];
    for (const [action, label] of actions) {
      setting.addButton((button) => {
        button.setButtonText(label).onClick(() => void this.choose(row, action, container));
        button.buttonEl.dataset.action = action;
        if (action === "resume" && this.resumed) button.setDisabled(true);
        if (action === "discard") button.setWarning();
      });
    }
  }

  private async choose(row: RecoveryRow, action: RecoverAction, container: HTMLElement): Promise<void> {
    if (this.busy || this.done.has(row.draftId)) return;
    if (action === "resume" && this.resumed) return;
    this.busy = true;
    try {
      const text = await this.act(row, action);
      if (text === null) return;
      if (typeof text !== "string") {
        const redrawn = this.rows.map((r) => (r.draftId === row.draftId ? text.changed : r));
        this.rows = redrawn;
        container.empty();
        this.fillRow(container, text.changed);
        return;
      }
      this.done.add(row.draftId);
      if (action === "resume") {
        this.resumed = true;
        // Only one session can be open: the other rows can no longer be resumed.
        const resumes = this.contentEl.querySelectorAll<HTMLButtonElement>('button[data-action="resume"]');
        resumes.forEach((b) => (b.disabled = true));
      }
      container.empty();
      container.createEl("p", { text, cls: "palee-recovery-done" });
      if (this.done.size === this.rows.length) this.close();
    } finally {
      this.busy = false;
    }
  }
}
