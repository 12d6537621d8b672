import type { App } from "obsidian";
import { formatDuration } from "../../core/time";
import type { EndRequest } from "../session-controller";
import type { EndTime } from "../../core/sessions";
import { Modal, Setting } from "obsidian";
import type { Rating } from "../../core/review/rating";
import { RATING_MEANINGS, ratingWord } from "../../core/review/rating";

/** When the session ended, as the learner chooses it in the end dialog. */
export type EndChoiceKind = "paused" | "last" | "now" | "given";

export interface EndChoice {
  kind: EndChoiceKind;
  /** "At the last activity (20:30)". */
  label: string;
}

/** What a choice would record: the minutes studied, or why the typed time cannot be used. */
export type EndPreviewResult = { minutes: number; endAt: EndTime } | { error: string };

export interface EndPreview {
  topicId: string;
  /** The topic as shown: its note's name, else its ID (contract §5 version 4, topics by name). */
  topic: string;
  /** Start as the learner reads it, e.g. "14:05" or "2026-08-13 14:05". */
  startedText: string;
  /** "No activity since 20:30, 12 h ago", or null when the session was active within the grace period. */
  silenceText: string | null;
  choices: EndChoice[];
  preselected: EndChoiceKind;
  /** The duration for a choice (`typed`: the time typed for "given"); computed by the core's rules. */
  preview: (kind: EndChoiceKind, typed: string) => EndPreviewResult;
  /** The next action carried to this session (a "Done" box beside it), or null. */
  carried: { text: string; day: string } | null;
  /** Setting "Ask what I remember when ending": shows the recall field and the four rating buttons. */
  askRecall: boolean;
}

/** What the dialog hands back: the controller's end request (`at`: "now", ISO 8601 or the typed HH:MM). */
export type EndInput = EndRequest;

/**
 * Ending a session: topic, start, the silence, when it ended (at the pause, at the last activity, now, or a
 * typed time), the duration that will be recorded for that choice, Summary and Next action. Confirm with the
 * button, Mod+Enter anywhere, or Enter in the next-action field; Escape cancels. A typed time that is not
 * valid shows why and disables confirming.
 */
export class EndSessionModal extends Modal {
  private summary = "";
  private nextAction = "";
  private recall = "";
  private rating: Rating | null = null;
  private done = false;
  private submitted = false;
  /** What confirming records now: the chosen end, or why it cannot be confirmed. */
  private chosen: EndPreviewResult = { error: "" };

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
    const previewEl = contentEl.createEl("p", { cls: "palee-end-preview" });
    if (preview.silenceText !== null) contentEl.createEl("p", { text: preview.silenceText, cls: "palee-end-silence" });
    // When it ended: one radio button per choice; "given" comes with its time field, and typing chooses it.
    let kind = preview.preselected;
    let typed = "";
    const group = contentEl.createDiv({ cls: "palee-end-choices" });
    group.createEl("p", { text: "The session ended", cls: "setting-item-name" });
    for (const choice of preview.choices) {
      const row = group.createEl("label", { cls: "palee-end-choice" });
      const radio = row.createEl("input", { type: "radio", attr: { name: "palee-end-at", value: choice.kind } });
      radio.checked = choice.kind === kind;
      const choose = (): void => {
        radio.checked = true;
        kind = choice.kind;
        update();
      };
      radio.addEventListener("change", choose);
      row.createSpan({ text: ` ${choice.label}` });
      if (choice.kind === "given") {
        const time = row.createEl("input", { type: "text", cls: "palee-end-time", attr: { placeholder: "20:30" } });
        time.addEventListener("input", () => {
          typed = time.value;
          choose();
        });
      }
    }
    const errorEl = contentEl.createEl("p", { cls: "palee-end-error mod-warning" });
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
    if (preview.carried) this.doneBox(preview.carried);
    if (preview.askRecall) this.recallStep();
    let confirm: HTMLButtonElement | null = null;
    new Setting(contentEl)
      .addButton((b) => b.setButtonText("Cancel").onClick(() => this.close()))
      .addButton(
        (b) =>
          (confirm = b
            .setButtonText("End session")
            .setCta()
            .onClick(() => this.submit()).buttonEl),
      );
    this.scope.register(["Mod"], "Enter", () => {
      this.submit();
      return false;
    });
    // The duration preview follows the choice; an unusable typed time is explained and cannot be confirmed.
    const update = (): void => {
      const chosen = (this.chosen = preview.preview(kind, typed));
      const minutes = "minutes" in chosen ? formatDuration(chosen.minutes) : "…";
      previewEl.setText(`${preview.topic} · started ${preview.startedText} · ${minutes}`);
      errorEl.setText("error" in chosen ? chosen.error : "");
      if (confirm) confirm.disabled = "error" in chosen;
    };
    update();
  }

  /** The carried next action, with a "Done" box: checked, the session records next_done. */
  private doneBox(carried: { text: string; day: string }): void {
    const setting = new Setting(this.contentEl)
      .setName(`Next action (from ${carried.day})`)
      .setDesc(carried.text)
      .setClass("palee-carried-next");
    const label = setting.controlEl.createEl("label", { cls: "palee-done" });
    const box = label.createEl("input", { type: "checkbox", cls: "palee-done-box" });
    label.createSpan({ text: " Done" });
    // "click" also comes with the keyboard (Space) and sees the new state.
    box.addEventListener("click", () => (this.done = box.checked));
  }

  /** "What do you remember?" and the four ratings, each with its meaning; a chosen one is chosen again to clear. */
  private recallStep(): void {
    new Setting(this.contentEl)
      .setName("What do you remember, without looking?")
      .setDesc("Optional. Recalling before re-reading is what makes it stick.")
      .addTextArea((text) => {
        text.onChange((value) => (this.recall = value));
        text.inputEl.rows = 3;
        text.inputEl.addClass("palee-recall-input");
      });
    const row = this.contentEl.createDiv({ cls: "palee-rating-buttons" });
    const buttons: HTMLButtonElement[] = [];
    for (const rating of [1, 2, 3, 4] as const) {
      const word = ratingWord(rating);
      const button = row.createEl("button", {
        text: word[0].toUpperCase() + word.slice(1),
        cls: "palee-rating-button",
        attr: { title: RATING_MEANINGS[rating], "aria-pressed": "false", "data-rating": String(rating) },
      });
      row.createSpan({ text: RATING_MEANINGS[rating], cls: "palee-rating-meaning" });
      button.addEventListener("click", () => {
        this.rating = this.rating === rating ? null : rating;
        buttons.forEach((b, i) => {
          const on = this.rating === i + 1;
          b.toggleClass("is-active", on);
          b.setAttribute("aria-pressed", String(on));
        });
      });
      buttons.push(button);
    }
  }

  onClose(): void {
    this.contentEl.empty();
    if (!this.submitted) this.onCancel();
  }

  submit(): void {
    const { chosen } = this;
    if (this.submitted || !("endAt" in chosen)) return;
    this.submitted = true;
    this.close();
    this.onSubmit({
      summary: blankToNull(this.summary),
      nextAction: blankToNull(this.nextAction),
      endAt: chosen.endAt,
      recall: blankToNull(this.recall),
      rating: this.rating,
      done: this.done,
    });
  }
}

function blankToNull(value: string): string | null {
  return value.trim() === "" ? null : value.trim();
}
