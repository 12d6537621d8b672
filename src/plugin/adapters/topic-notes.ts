/**
 * The plugin's one reader of topic notes (contract §1): every Markdown note outside the session folder whose
 * frontmatter, as the metadata cache holds it, has a `palee_id`, turned into a TopicNote by the core (the CLI's
 * reader is src/node/topic-notes.ts). The picker, the doors and every display name read the notes here.
 */
import type { App, EventRef, TAbstractFile, TFile } from "obsidian";
import type { TopicNamer, TopicNote, TopicNoteRead, TopicNotes } from "../../core/topics";
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

/**
 * The topic notes as the plugin reads them, kept between reads once `track` follows the vault: a read looks at
 * every Markdown file, and the names are asked for by every notice and every redraw of the history view. Any
 * change to a note outside the session folder (its properties, a rename, a deletion) makes the next read
 * look again; a session note's changes do not.
 */
export class PluginTopicNotes {
  private kept: { folder: string; notes: TopicNotes } | null = null;
  private tracking = false;

  constructor(
    private readonly app: App,
    private readonly folder: () => string,
  ) {}

  /** Starts following the vault; `register` ties each handler to the plugin's lifetime (Plugin.registerEvent). */
  track(register: (ref: EventRef) => void): void {
    const { vault, metadataCache } = this.app;
    const changed = (path: string): void => {
      if (this.kept !== null && !path.startsWith(`${this.kept.folder}/`)) this.kept = null;
    };
    register(metadataCache.on("changed", (file) => changed(file.path)));
    register(vault.on("create", (file: TAbstractFile) => changed(file.path)));
    register(vault.on("delete", (file: TAbstractFile) => changed(file.path)));
    register(
      vault.on("rename", (file: TAbstractFile, oldPath: string) => {
        changed(file.path);
        changed(oldPath);
      }),
    );
    this.tracking = true;
  }

  notes(): TopicNotes {
    const folder = this.folder();
    if (this.kept?.folder === folder) return this.kept.notes;
    const notes = readTopicNotes(this.app, folder);
    if (this.tracking) this.kept = { folder, notes };
    return notes;
  }

  /** The display names of topics now (contract §5 version 4): the topic notes' names, else the IDs. */
  names(): TopicNamer {
    return topicNamer(this.notes().notes);
  }

  /** The note that has the palee_id `topicId` (the first by path when several do), or null. */
  private noteOf(topicId: string): TopicNote | null {
    const notes = this.notes().notes.filter((n) => n.topicId === topicId);
    return notes.sort((a, b) => (a.path < b.path ? -1 : 1))[0] ?? null;
  }

  /**
   * The topic note of `topicId` as a Markdown link showing its name, as written in the note at `from` (the daily
   * note), or null when no note has that palee_id (or its name cannot be linked safely).
   */
  link(topicId: string, from: string): string | null {
    const note = this.noteOf(topicId);
    const file = note && this.app.vault.getFileByPath(note.path);
    return file ? topicNoteMarkdown(this.app.metadataCache.fileToLinktext(file, from, true), note.name) : null;
  }

  /** The link text naming exactly the note that has the palee_id `topicId` (its path without ".md"), or null. */
  linktext(topicId: string): string | null {
    return this.noteOf(topicId)?.path.replace(/\.md$/i, "") ?? null;
  }
}
