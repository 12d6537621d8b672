import type { App } from "obsidian";
import { Modal, Setting } from "obsidian";
import { RATING_MEANINGS, ratingWord } from "../../core/review/rating";

/** The fields as typed; blank ones are left out by the flow. */
export interface LogInput {
  from: string;
  to: string;
  minutes: string;
  summary: string;
  nextAction: string;
  /** The recall step (contract §5 version 4): what is remembered, and "" or "1"–"4". */
  recall: string;
  rating: string;
}

/**
 * Logging a session that happened without the timer: start and end (or minutes), summary, next action. The
 * flow asks the core; a refusal (in the future, an overlap, a start after the end, bad minutes) is shown
 * here, under the fields, and nothing is written. `onSubmit` resolves to that refusal, or null when logged.
 */
export class LogSessionModal extends Modal {
  constructor(
    app: App,
    /** The topic as shown: its note's name, else its ID. */
    private readonly topic: string,
    private readonly onSubmit: (input: LogInput) => Promise<string | null>,
  ) {
    super(app);
  }

  onOpen(): void {
    const { contentEl } = this;
    const input: LogInput = { from: "", to: "", minutes: "", summary: "", nextAction: "", recall: "", rating: "" };
    this.titleEl.setText("Log a past session");
    contentEl.createEl("p", { text: `Topic: ${this.topic}`, cls: "palee-log-topic" });
    const field = (name: string, desc: string, key: keyof LogInput, placeholder: string): void => {
      new Setting(contentEl)
        .setName(name)
        .setDesc(desc)
        .addText((text) => {
          text.setPlaceholder(placeholder).onChange((value) => (input[key] = value));
          text.inputEl.addClass(`palee-log-${key}`);
        });
    };
    field("Start", "HH:MM or a date and time.", "from", "09:30");
    field("End", "Empty: now.", "to", "10:15");
    field("Or minutes", "Instead of the start.", "minutes", "45");
    field("Summary", "", "summary", "What did you learn?");
    field("Next action", "", "nextAction", "The next step");
    field("What do you remember?", "Optional: without looking.", "recall", "");
    // A plain select, its value read when logging: every way of choosing (mouse, keys) counts.
    const ratingSetting = new Setting(contentEl).setName("How well did you recall it?");
    const select = ratingSetting.controlEl.createEl("select", { cls: "dropdown palee-log-rating" });
    select.createEl("option", { text: "Not rated", value: "" });
    for (const r of [1, 2, 3, 4] as const) {
      select.createEl("option", { text: `${ratingWord(r)}: ${RATING_MEANINGS[r]}`, value: String(r) });
    }
    const errorEl = contentEl.createEl("p", { cls: "palee-log-error mod-warning" });
    let busy = false;
    const submit = async (): Promise<void> => {
      if (busy) return;
      busy = true;
      const refusal = await this.onSubmit({ ...input, rating: select.value });
      busy = false;
      if (refusal === null) this.close();
      else errorEl.setText(refusal);
    };
    new Setting(contentEl)
      .addButton((b) => b.setButtonText("Cancel").onClick(() => this.close()))
      .addButton((b) =>
        b
          .setButtonText("Log session")
          .setCta()
          .onClick(() => void submit()),
      );
    this.scope.register(["Mod"], "Enter", () => {
      void submit();
      return false;
    });
  }

  onClose(): void {
    this.contentEl.empty();
  }
}
