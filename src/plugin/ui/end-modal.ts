import type { App } from "obsidian";
import { Modal, Setting } from "obsidian";

export interface EndPreview {
  topicId: string;
  /** Start as the learner reads it, e.g. "14:05" or "Mon 14:05". */
  startedText: string;
  durationMinutes: number;
}

export interface EndInput {
  summary: string | null;
  nextAction: string | null;
}

/**
 * Ending a session: topic, start, the duration that will be recorded, Summary and Next action.
 * Confirm with the button, Mod+Enter anywhere, or Enter in the next-action field; Escape cancels.
 */
export class EndSessionModal extends Modal {
  private summary = "";
  private nextAction = "";
  private submitted = false;

  constructor(
    app: App,
    private readonly preview: EndPreview,
    private readonly onSubmit: (input: EndInput) => void,
    private readonly onCancel: () => void = () => undefined,
  ) {
    super(app);
  }

  onOpen(): void {
    const { contentEl, preview } = this;
    this.titleEl.setText("End session");
    contentEl.createEl("p", {
      text: `${preview.topicId} · started ${preview.startedText} · ${preview.durationMinutes} min`,
      cls: "palee-end-preview",
    });
    new Setting(contentEl)
      .setName("Summary")
      .setDesc("What you covered. It becomes your working memory for the next session.")
      .addTextArea((text) => {
        text.setPlaceholder("What did you learn?").onChange((value) => (this.summary = value));
        text.inputEl.rows = 4;
        text.inputEl.addClass("palee-summary-input");
      });
    new Setting(contentEl)
      .setName("Next action")
      .setDesc("Where to pick up next time.")
      .addText((text) => {
        text.setPlaceholder("The next step").onChange((value) => (this.nextAction = value));
        text.inputEl.addClass("palee-next-input");
        text.inputEl.addEventListener("keydown", (event: KeyboardEvent) => {
          if (event.key === "Enter" && !event.isComposing) {
            event.preventDefault();
            this.submit();
          }
        });
      });
    new Setting(contentEl)
      .addButton((b) => b.setButtonText("Cancel").onClick(() => this.close()))
      .addButton((b) => b.setButtonText("End session").setCta().onClick(() => this.submit()));
    this.scope.register(["Mod"], "Enter", () => {
      this.submit();
      return false;
    });
  }

  onClose(): void {
    this.contentEl.empty();
    if (!this.submitted) this.onCancel();
  }

  submit(): void {
    if (this.submitted) return;
    this.submitted = true;
    this.close();
    this.onSubmit({ summary: blankToNull(this.summary), nextAction: blankToNull(this.nextAction) });
  }
}

function blankToNull(value: string): string | null {
  return value.trim() === "" ? null : value.trim();
}
