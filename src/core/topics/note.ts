/**
 * The topic note (contract §1): any Markdown note whose frontmatter has `palee_id: T-…`. Each face has one
 * reader of the vault's notes (the CLI's src/node/topic-notes.ts, the plugin's adapters/topic-notes.ts); both
 * turn a note's frontmatter into a TopicNote here, so the two faces agree on what is a topic note.
 */
import { classifyRecord } from "../records/frontmatter";
import { TOPIC_ID_PATTERN, normalizeTopic } from "./ids";

/** A note whose frontmatter has `palee_id: T-…` (contract §1). */
export interface TopicNote {
  /** Vault-relative, with "/". */
  path: string;
  /** The file name without ".md". */
  name: string;
  /** The frontmatter's `aliases` (a list or one string), as written. */
  aliases: readonly string[];
  topicId: string;
}

/**
 * What a note's frontmatter makes it: a topic note; a note that means to be one but whose `palee_id` is not a
 * topic ID (then `note.topicId` is the value as written, so a name that finds it is refused for that reason,
 * issue 35 §3), with `legacy` the ID as a record may still use it (contract §2: a non-empty string read from a
 * note is accepted, e.g. `git_rebase`), or null; or nothing (null: no `palee_id`).
 */
export type TopicNoteRead =
  { kind: "topic"; note: TopicNote } | { kind: "invalid-id"; note: TopicNote; legacy: string | null };

/** The vault's topic notes as a face read them: the valid ones and those whose palee_id is no topic ID. */
export interface TopicNotes {
  readonly notes: TopicNote[];
  readonly invalid: TopicNote[];
  /** The invalid ones whose palee_id is a legacy ID (TopicNoteRead `legacy`), with that ID as `topicId`. */
  readonly legacy: TopicNote[];
}

function noteOf(path: string, fields: Record<string, unknown>, topicId: string): TopicNote {
  const raw = fields.aliases;
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  const aliases = list.filter((a): a is string => typeof a === "string" && a.trim() !== "").map((a) => a.trim());
  const file = path.slice(path.lastIndexOf("/") + 1);
  return { path, name: file.replace(/\.md$/i, ""), aliases, topicId };
}

/**
 * The topic note that a note's frontmatter fields make it (as parsed: by the CLI from the file's head, by the
 * plugin from the metadata cache), classified; null without a `palee_id`.
 */
export function readTopicNote(path: string, fields: Record<string, unknown>): TopicNoteRead | null {
  const id = fields.palee_id;
  if (id === undefined || id === null) return null;
  if (typeof id === "string" && TOPIC_ID_PATTERN.test(id.trim())) {
    return { kind: "topic", note: noteOf(path, fields, id.trim()) };
  }
  const note = noteOf(path, fields, typeof id === "string" ? id : JSON.stringify(id));
  return { kind: "invalid-id", note, legacy: normalizeTopic(id) };
}

/**
 * readTopicNote of a file's frontmatter block (`head`: the text from the first "---" to the closing one); null
 * when it has none, or YAML that does not parse.
 */
export function readTopicNoteHead(path: string, head: string): TopicNoteRead | null {
  const read = classifyRecord(head);
  if (read.state !== "ok" && read.state !== "schema-invalid") return null;
  return readTopicNote(path, read.fields);
}

/** The topic note of a frontmatter block, or null when it is none (readTopicNoteHead, valid IDs only). */
export function topicNoteOf(path: string, head: string): TopicNote | null {
  const read = readTopicNoteHead(path, head);
  return read?.kind === "topic" ? read.note : null;
}

/** Collects what a face read, note by note, into its topic notes and the invalid ones. */
export function collectTopicNotes(reads: Iterable<TopicNoteRead | null>): TopicNotes {
  const notes: TopicNote[] = [];
  const invalid: TopicNote[] = [];
  const legacy: TopicNote[] = [];
  for (const read of reads) {
    if (read?.kind === "topic") notes.push(read.note);
    else if (read?.kind === "invalid-id") {
      invalid.push(read.note);
      if (read.legacy !== null) legacy.push({ ...read.note, topicId: read.legacy });
    }
  }
  return { notes, invalid, legacy };
}
