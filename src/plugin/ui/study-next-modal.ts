import type { App } from "obsidian";
import { SuggestModal, prepareFuzzySearch } from "obsidian";

/** One line of "What should I study next?": a queue entry as the learner reads it. */
export interface NextChoice {
  topicId: string;
  /** The topic note's name when one exists, else the ID. */
  name: string;
  group: string;
  /** The reasons' texts, joined ("due today (7-day gap); next action: …"). */
  reasons: string;
}

/** The queue in a suggester (contract §5 version 4): each entry with its reasons; choosing one starts it. */
export class StudyNextModal extends SuggestModal<NextChoice> {
  constructor(
    app: App,
    private readonly choices: readonly NextChoice[],
    private readonly onChoose: (choice: NextChoice) => void,
  ) {
    super(app);
    this.setPlaceholder("Pick a topic to study next");
    this.emptyStateText = "Nothing to review yet: end a session on a topic to start its schedule.";
  }

  getSuggestions(query: string): NextChoice[] {
    if (query.trim() === "") return [...this.choices];
    const match = prepareFuzzySearch(query.trim());
    return this.choices.filter((c) => match(`${c.name} ${c.topicId}`) !== null);
  }

  renderSuggestion(choice: NextChoice, el: HTMLElement): void {
    // Text from notes is rendered as text, never as HTML.
    const content = el.createDiv({ cls: "suggestion-content palee-next-choice" });
    const title = content.createDiv({ cls: "suggestion-title" });
    title.createSpan({ text: choice.name });
    if (choice.name !== choice.topicId) title.createSpan({ text: ` ${choice.topicId}`, cls: "palee-topic-id" });
    content.createDiv({ text: `${choice.group} · ${choice.reasons || "no reason yet"}`, cls: "suggestion-note" });
  }

  onChooseSuggestion(choice: NextChoice): void {
    this.onChoose(choice);
  }
}
