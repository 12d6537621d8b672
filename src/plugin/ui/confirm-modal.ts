import type { App } from "obsidian";
import { Modal, Setting } from "obsidian";

/** A yes/no question; `onAnswer` is called exactly once (closing the modal means no). */
export class ConfirmModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly heading: string,
    private readonly message: string,
    private readonly confirmLabel: string,
    private readonly onAnswer: (yes: boolean) => void,
  ) {
    super(app);
  }

  onOpen(): void {
    this.titleEl.setText(this.heading);
    this.contentEl.createEl("p", { text: this.message });
    new Setting(this.contentEl)
      .addButton((b) => b.setButtonText("Cancel").onClick(() => this.answer(false)))
      .addButton((b) =>
        b
          .setButtonText(this.confirmLabel)
          .setCta()
          .onClick(() => this.answer(true)),
      );
  }

  onClose(): void {
    this.contentEl.empty();
    if (!this.answered) this.answer(false);
  }

  private answer(yes: boolean): void {
    if (this.answered) return;
    this.answered = true;
    this.close();
    this.onAnswer(yes);
  }
}
