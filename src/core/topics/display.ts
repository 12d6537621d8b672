/**
 * How a topic is shown (contract §5 version 4, "topics by name"): by its topic note's name wherever a face shows
 * it to the learner, by its ID where no note has it; and, in the notes the tool writes (index.md, hot.md, the
 * daily-note line), by its ID made safe for the Markdown around it. Files keep the ID as the key.
 */
import { inlineMarkdownText } from "../records/ids";
import { TOPIC_ID_PATTERN } from "./ids";
import type { TopicNote } from "./note";

/** A topic for index.md / hot.md: as-is when it is a well-formed ID, escaped otherwise. */
export function renderTopic(topicId: string): string {
  return TOPIC_ID_PATTERN.test(topicId) ? topicId : inlineMarkdownText(topicId);
}

/** "[[Topics/Rust ownership|Rust]]" → "Topics/Rust ownership"; null when it is not one wikilink. */
export function topicNoteTarget(topicNote: string | null | undefined): string | null {
  const m = topicNote ? /^\s*\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]\s*$/.exec(topicNote) : null;
  const target = m ? m[1].trim() : "";
  return target === "" ? null : target;
}

/**
 * The topic as the learner named it, from a recorded `topic_note` link: the linked note's name (its file name
 * without folder or ".md"), else the topic ID.
 */
export function topicLabel(topicId: string, topicNote: string | null | undefined): string {
  const target = topicNoteTarget(topicNote);
  const name = target
    ?.slice(target.lastIndexOf("/") + 1)
    .replace(/\.md$/i, "")
    .trim();
  return name ? name : topicId;
}

/** The display name of a topic: its note's name, else the name of the note a session linked, else the ID. */
export type TopicNamer = (topicId: string, topicNote?: string | null) => string;

/**
 * The display names of the topics of `notes` (a face's topic notes): a topic note that has the ID names it (the
 * first by path when several do), so a renamed note shows its new name; without one, a recorded link's note
 * (topicLabel); the ID only when neither names it.
 */
export function topicNamer(notes: readonly TopicNote[]): TopicNamer {
  const names = new Map<string, TopicNote>();
  for (const note of notes) {
    const known = names.get(note.topicId);
    if (known === undefined || note.path < known.path) names.set(note.topicId, note);
  }
  return (topicId, topicNote) => names.get(topicId)?.name ?? topicLabel(topicId, topicNote);
}

/** Text that a wikilink's target or shown text cannot hold: it would end or split the link, or break the line. */
const UNLINKABLE = /[[\]|#^\p{Cc}\u2028\u2029]/u;

/**
 * A topic note as a Markdown link showing its name (the daily-note line, contract §5 version 4):
 * `[[Topics/Rust ownership|Rust ownership]]`, or `[[Rust ownership]]` when the link text is the name; null when
 * either cannot be held by a link safely (the topic is then shown by its ID, renderTopic).
 */
export function topicNoteMarkdown(linktext: string, name: string): string | null {
  const target = linktext.trim();
  const shown = name.trim();
  if (target === "" || shown === "" || UNLINKABLE.test(target) || UNLINKABLE.test(shown)) return null;
  return target === shown ? `[[${target}]]` : `[[${target}|${shown}]]`;
}
