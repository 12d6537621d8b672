/**
 * The plugin's one reader of topic notes (contract §1): every Markdown note outside the session folder whose
 * frontmatter, as the metadata cache holds it, has a `palee_id`, turned into a TopicNote by the core (the CLI's
 * reader is src/node/topic-notes.ts). The picker, the doors and every display name read the notes here.
 */
import type { App, TFile } from "obsidian";
import type { TopicNamer, TopicNoteRead, TopicNotes } from "../../core/topics";
import { collectTopicNotes, readTopicNote, topicNamer, topicNoteMarkdown } from "../../core/topics";

/** What the note's cached frontmatter makes it (null: no frontmatter, or no palee_id). */
export function topicNoteOfFile(app: App, file: TFile): TopicNoteRead | null {
  const frontmatter: unknown = app.metadataCache.getFileCache(file)?.frontmatter;
  if (frontmatter === null || typeof frontmatter !== "object") return null;
  return readTopicNote(file.path, frontmatter as Record<string, unknown>);
}

/** The vault's topic notes outside `folder` (the session folder), in the vault's file order. */
export function readTopicNotes(app: App, folder: string): TopicNotes {
  const inside = `${folder}/`;
  return collectTopicNotes(
    app.vault
      .getMarkdownFiles()
      .filter((file) => !file.path.startsWith(inside))
      .map((file) => topicNoteOfFile(app, file)),
  );
}

/** The display names of topics now (contract §5 version 4): the topic notes' names, else the IDs. */
export function topicNamesIn(app: App, folder: string): TopicNamer {
  return topicNamer(readTopicNotes(app, folder).notes);
}

/**
 * The topic note of `topicId` as a Markdown link showing its name, as written in the note at `from` (the daily
 * note), or null when no note has that palee_id (or its name cannot be linked safely).
 */
export function topicLinkIn(app: App, folder: string, topicId: string, from: string): string | null {
  const note = readTopicNotes(app, folder)
    .notes.filter((n) => n.topicId === topicId)
    .sort((a, b) => (a.path < b.path ? -1 : 1))[0];
  const file = note && app.vault.getFileByPath(note.path);
  return file ? topicNoteMarkdown(app.metadataCache.fileToLinktext(file, from, true), note.name) : null;
}
