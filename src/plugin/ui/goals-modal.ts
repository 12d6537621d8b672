/**
 * The goal dialog (contract §5 `set-goals`): the overall weekly goal, the active topic's, rest days, freezes and
 * pauses, each field filled with what plan.md holds now. Only the fields the learner changed are sent; the flow
 * refuses a bad value with a notice and writes nothing. Text is set as text, never as HTML.
 */
import type { App } from "obsidian";
import { Modal, Setting } from "obsidian";

/** The dialog's fields as typed. */
export interface GoalsInput {
  minutesPerWeek: string;
  sessionsPerWeek: string;
  topicMinutesPerWeek: string;
  topicSessionsPerWeek: string;
  restDays: string;
  freezesPerMonth: string;
  minMinutes: string;
  pause: string;
  unpause: string;
}

export class GoalsModal extends Modal {
  constructor(
    app: App,
    private readonly current: GoalsInput,
    /** The topic whose goal the dialog also sets, as shown (its note's name, else its ID); null: none. */
    private readonly topic: string | null,
    /** Resolves to true when written (the dialog closes), false when refused (it stays open). */
    private readonly onSubmit: (input: GoalsInput) => Promise<boolean>,
  ) {
    super(app);
  }

  onOpen(): void {
    const { contentEl } = this;
    const input: GoalsInput = { ...this.current };
    this.titleEl.setText("Set goals");
    contentEl.createEl("p", {
      text: "Goals are weekly and count from this week on; earlier weeks keep the goal they had.",
      cls: "palee-history-muted",
    });
    const field = (name: string, desc: string, key: keyof GoalsInput, placeholder: string): void => {
      new Setting(contentEl)
        .setName(name)
        .setDesc(desc)
        .addText((text) => {
          text.setPlaceholder(placeholder).setValue(input[key]);
          text.onChange((value) => (input[key] = value));
          text.inputEl.addClass(`palee-goals-${key}`);
        });
    };
    field("Minutes per week", "Your overall weekly goal. Empty: none.", "minutesPerWeek", "300");
    field("Sessions per week", "Empty: none.", "sessionsPerWeek", "5");
    if (this.topic !== null) {
      field(`Minutes per week on ${this.topic}`, "The active topic's goal. Empty: none.", "topicMinutesPerWeek", "120");
      field(`Sessions per week on ${this.topic}`, "Empty: none.", "topicSessionsPerWeek", "3");
    }
    field("Rest days", "Weekdays that never break your chain, e.g. sat,sun.", "restDays", "sat,sun");
    field("Freezes per month", "Missed days forgiven each month, 0 to 10.", "freezesPerMonth", "2");
    field("Minutes that count", "A study day has at least this many minutes, 1 to 240.", "minMinutes", "5");
    field("Add a pause", "A holiday or illness: first and last day.", "pause", "2026-09-01/2026-09-10");
    field("End a pause", "The first day of a pause to remove.", "unpause", "2026-09-01");
    let busy = false;
    new Setting(contentEl)
      .addButton((b) => b.setButtonText("Cancel").onClick(() => this.close()))
      .addButton((b) =>
        b
          .setButtonText("Save goals")
          .setCta()
          .onClick(async () => {
            if (busy) return;
            busy = true;
            const written = await this.onSubmit({ ...input });
            busy = false;
            if (written) this.close();
          }),
      );
  }

  onClose(): void {
    this.contentEl.empty();
  }
}
