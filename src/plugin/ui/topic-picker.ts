import type { App, SearchResult } from "obsidian";
import { SuggestModal, prepareFuzzySearch } from "obsidian";
import type { TopicNote } from "../../core/topics";
import { TOPIC_ID_PATTERN, TOPIC_ID_RULE, findTopicByName } from "../../core/topics";

/** One line of the topic picker. */
export type TopicChoice =
  | {
      kind: "topic-note";
      topicId: string;
      notePath: string;
      noteName: string;
      /** The note's `aliases`, which find it as its name does (contract §4 "finding a topic by name"). */
      aliases?: readonly string[];
      review?: string;
    }
  | { kind: "past-topic"; topicId: string; review?: string }
  | { kind: "use-current-note"; notePath: string; noteName: string }
  | { kind: "new-topic"; topicId: string; valid: boolean };

export function choiceLabel(choice: TopicChoice): { title: string; note: string } {
  switch (choice.kind) {
    // By the note's name, with the ID beside it: it tells two similar topics apart (contract §5 version 4).
    case "topic-note":
      return { title: choice.noteName, note: `${choice.topicId} · topic note${reviewMark(choice.review)}` };
    case "past-topic":
      return { title: choice.topicId, note: `From your past sessions${reviewMark(choice.review)}` };
    case "use-current-note":
      return { title: `Use "${choice.noteName}" as a topic`, note: "Adds a palee_id to this note's properties" };
    case "new-topic":
      return choice.valid
        ? { title: `New topic: ${choice.topicId}`, note: "Press enter to start" }
        : {
            title: `Not a valid topic ID: ${choice.topicId}`,
            note: `${TOPIC_ID_RULE[0].toUpperCase()}${TOPIC_ID_RULE.slice(1)}`,
          };
  }
}

/** " · due" or " · in 3 days": where the topic stands in the review schedule (contract §5 version 4). */
const reviewMark = (review: string | undefined): string => (review ? ` · ${review}` : "");

/** What the learner typed as a new topic ID ("rust ownership" becomes T-rust-ownership). */
export function typedTopic(query: string): { topicId: string; valid: boolean } | null {
  const trimmed = query.trim();
  if (trimmed === "") return null;
  const withPrefix = /^t-/i.test(trimmed) ? `T-${trimmed.slice(2)}` : `T-${trimmed}`;
  const topicId = withPrefix.replace(/\s+/g, "-");
  return { topicId, valid: TOPIC_ID_PATTERN.test(topicId) };
}

const asNote = (choice: TopicChoice & { kind: "topic-note" }): TopicNote => ({
  path: choice.notePath,
  name: choice.noteName,
  aliases: choice.aliases ?? [],
  topicId: choice.topicId,
});

/**
 * The picker's lines for what was typed: first the topic notes the core's matcher finds (its path, name or
 * alias, or a part of one only one topic has: the topic `--topic` and a link would take), then the rest
 * that the fuzzy search matches, best first, and last a new topic ID when none of the lines has it.
 */
export function topicSuggestions(
  choices: readonly TopicChoice[],
  query: string,
  fuzzy: (text: string) => SearchResult | null,
): TopicChoice[] {
  const typed = typedTopic(query);
  if (typed === null) return [...choices];
  const notes = choices.filter((c): c is TopicChoice & { kind: "topic-note" } => c.kind === "topic-note");
  const match = findTopicByName(query.trim(), notes.map(asNote));
  const named = match.kind === "found" ? [match.note] : match.kind === "ambiguous" ? match.matches : [];
  const first = notes.filter((c) => named.some((n) => n.path === c.notePath));
  const scored: Array<{ choice: TopicChoice; result: SearchResult }> = [];
  for (const choice of choices) {
    if (first.includes(choice as TopicChoice & { kind: "topic-note" })) continue;
    const { title, note } = choiceLabel(choice);
    const aliases = choice.kind === "topic-note" ? (choice.aliases ?? []).join(" ") : "";
    const result = fuzzy(`${title} ${note} ${aliases}`.trimEnd());
    if (result) scored.push({ choice, result });
  }
  scored.sort((a, b) => b.result.score - a.result.score);
  const found = [...first, ...scored.map((s) => s.choice)];
  const exists = choices.some((c) => "topicId" in c && c.topicId === typed.topicId);
  return exists ? found : [...found, { kind: "new-topic", ...typed }];
}

/**
 * Fuzzy topic picker: topic notes, topics of past sessions, "use the current note as a topic", or a newly
 * typed topic ID (validated: an invalid one is shown as such and cannot start a session).
 */
export class TopicPickerModal extends SuggestModal<TopicChoice> {
  constructor(
    app: App,
    private readonly choices: readonly TopicChoice[],
    private readonly onChoose: (choice: TopicChoice) => void,
  ) {
    super(app);
    this.setPlaceholder("Pick a topic, or type the ID of a new one");
    this.emptyStateText = "No topics yet: type a topic ID such as T-rust-ownership";
  }

  getSuggestions(query: string): TopicChoice[] {
    return topicSuggestions(this.choices, query, prepareFuzzySearch(query.trim()));
  }

  renderSuggestion(choice: TopicChoice, el: HTMLElement): void {
    const { title, note } = choiceLabel(choice);
    // setText/createDiv: text from notes is always rendered as text, never as HTML.
    // Obsidian's own suggestion classes: the note is muted and smaller in every theme.
    const content = el.createDiv({ cls: "suggestion-content" });
    content.createDiv({ text: title, cls: "suggestion-title" });
    content.createDiv({ text: note, cls: "suggestion-note" });
  }

  onChooseSuggestion(choice: TopicChoice): void {
    this.onChoose(choice);
  }
}
