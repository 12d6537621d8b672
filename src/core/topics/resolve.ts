/**
 * Finding a topic by name (contract §4, version 3): what a typed topic value means, given the topic notes of
 * the vault (note.ts; each face reads them once) and the topic IDs seen in sessions, and the refusals, in the
 * same words on every face. Pure: the faces gather the notes and print what this decides.
 */
import { TopicLookupError, UsageError } from "../errors";
import { editDistance } from "./distance";
import { TOPIC_ID_PATTERN, TOPIC_ID_RULE, normalizeTopic, validateNewTopicId } from "./ids";
import type { TopicNote } from "./note";

/** A typed value, before any note is read: no topic, a topic ID (used as it is), or a name to look up. */
export type TopicValue = { kind: "none" } | { kind: "id"; topicId: string } | { kind: "name"; name: string };

/** The longest name or path looked up; anything longer is refused before any note is read. */
export const MAX_TOPIC_NAME_CHARS = 500;

/** How many close names an `unknown_topic` refusal names. */
const CLOSEST_NAMES = 3;

const shown = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** Whether a value looks like an attempt at a topic ID ("T-…", "t-…"), valid or not. */
const looksLikeId = (value: string): boolean => /^t-/i.test(value);

/**
 * Classifies a typed topic: blank and "(none)" mean no topic; a value matching the topic-ID pattern is an ID;
 * anything else is a name. Refuses (invalid_topic, exit 2) what can be neither: "[[", "]]", "|", control
 * characters or line breaks, or more than MAX_TOPIC_NAME_CHARS characters. Nothing is read before this.
 */
export function classifyTopicValue(raw: string | null | undefined): TopicValue {
  const value = normalizeTopic(raw);
  if (value === null) return { kind: "none" };
  if (TOPIC_ID_PATTERN.test(value)) return { kind: "id", topicId: value };
  const broken = /\[\[|\]\]|\||[\p{Cc}\u2028\u2029]/u.test(value);
  if (broken || value.length > MAX_TOPIC_NAME_CHARS) {
    if (looksLikeId(value)) validateNewTopicId(value); // throws, with the ID's own message
    const why = broken
      ? 'a topic name or path cannot contain "[[", "]]", "|" or line breaks'
      : `a topic name or path has at most ${MAX_TOPIC_NAME_CHARS} characters (this one has ${value.length})`;
    throw new UsageError(
      `invalid topic ${shown(value)}: ${why}; pass a topic ID (T-…) or a topic note's name`,
      "invalid_topic",
    );
  }
  return { kind: "name", name: value };
}

/** Text compared without regard to case or Unicode normalization (macOS file names are decomposed). */
const fold = (text: string): string => text.normalize("NFC").toLowerCase();

/** What a name stands for among the topic notes. */
export type NameMatch =
  | { kind: "found"; note: TopicNote; by: "path" | "name" | "part" }
  | { kind: "ambiguous"; matches: TopicNote[] }
  | { kind: "unknown" };

/** Notes matched, as one topic when they all carry the same ID; several topics otherwise (one note each). */
function decide(found: readonly TopicNote[], by: "name" | "part"): NameMatch | null {
  if (found.length === 0) return null;
  const byId = new Map<string, TopicNote>();
  for (const note of [...found].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (!byId.has(note.topicId)) byId.set(note.topicId, note);
  }
  const matches = [...byId.values()];
  return matches.length === 1 ? { kind: "found", note: matches[0], by } : { kind: "ambiguous", matches };
}

const namesOf = (note: TopicNote): string[] => [note.name, ...note.aliases].map(fold);

/**
 * Looks a name up among the topic notes, in the contract's order: the vault path (with or without ".md");
 * the file name or an alias, ignoring case; a part of one of those names, ignoring case, that only one
 * topic's names hold. Each step decides when it matches anything.
 */
export function findTopicByName(name: string, notes: readonly TopicNote[]): NameMatch {
  const asPath = name.normalize("NFC").replace(/^\.\//, "");
  const byPath = notes.find((n) => {
    const path = n.path.normalize("NFC");
    return path === asPath || path === `${asPath}.md`;
  });
  if (byPath) return { kind: "found", note: byPath, by: "path" };
  const wanted = fold(name);
  const exact = decide(
    notes.filter((n) => namesOf(n).includes(wanted)),
    "name",
  );
  if (exact) return exact;
  const part = decide(
    notes.filter((n) => namesOf(n).some((candidate) => candidate.includes(wanted))),
    "part",
  );
  // The closest names are for the refusal only (topicIdForName), so they are computed there.
  return part ?? { kind: "unknown" };
}

/** The notes whose names are nearest to `wanted` (folded), nearest first, one per topic. */
export function closestNotes(wanted: string, notes: readonly TopicNote[]): TopicNote[] {
  const scored = notes.map((note) => ({
    note,
    distance: Math.min(...namesOf(note).map((n) => editDistance(wanted, n, MAX_TOPIC_NAME_CHARS))),
  }));
  scored.sort((a, b) => a.distance - b.distance || (a.note.name < b.note.name ? -1 : 1));
  const seen = new Set<string>();
  const out: TopicNote[] = [];
  for (const { note } of scored) {
    if (seen.has(note.topicId)) continue;
    seen.add(note.topicId);
    out.push(note);
    if (out.length === CLOSEST_NAMES) break;
  }
  return out;
}

const described = (note: TopicNote): string => `${note.topicId} (${note.name}, ${note.path})`;
const asJson = (note: TopicNote): Record<string, string> => ({
  topic_id: note.topicId,
  name: note.name,
  path: note.path,
});

/** How a face looks a name up (topicIdForName). */
export interface LookupOptions {
  /** Notes whose palee_id is not a topic ID (TopicNotes `invalid`): a name that finds only one is refused so. */
  invalid?: readonly TopicNote[];
  /**
   * Whether the face begins a new topic from a topic ID nothing has yet (the CLI, MCP, hooks); a link or the
   * app's command line never does (the plugin's doors), and the refusal says where a new topic begins instead.
   */
  newIds?: boolean;
}

/** What to do when no topic is found: where a new topic begins, on this face. */
const beginHint = (newIds: boolean): string =>
  newIds
    ? "pass a topic ID (T-…) to start a new topic, or add palee_id: T-… to a note's properties"
    : "add palee_id: T-… to a note's properties, or start a new topic once from the topic picker";

/** A name that finds only a note whose palee_id is not a topic ID: refused for that reason (issue 35 §3). */
export function invalidIdRefusal(name: string, invalid: readonly TopicNote[]): UsageError | null {
  const match = findTopicByName(name, invalid);
  const note = match.kind === "found" ? match.note : match.kind === "ambiguous" ? match.matches[0] : null;
  if (note === null) return null;
  return new UsageError(
    `the note ${note.path} has palee_id ${JSON.stringify(note.topicId)}, which is not a topic ID: ` +
      `correct its palee_id (${TOPIC_ID_RULE}); nothing was written`,
    "invalid_topic",
  );
}

/** The topic ID a name stands for, or the refusal (topicNoteForName). */
export function topicIdForName(name: string, notes: readonly TopicNote[], options: LookupOptions = {}): string {
  return topicNoteForName(name, notes, options).topicId;
}

/**
 * The topic note a name stands for, or the refusal: `ambiguous_topic` naming each candidate (`matches` in
 * JSON), `invalid_topic` when only a note with a broken palee_id has the name, `unknown_topic` naming the
 * closest names (`closest`). A value that looks like a topic ID but is not one, and names no note, is refused
 * as an invalid ID.
 */
export function topicNoteForName(name: string, notes: readonly TopicNote[], options: LookupOptions = {}): TopicNote {
  const match = findTopicByName(name, notes);
  if (match.kind === "found") return match.note;
  if (match.kind === "ambiguous") {
    throw new TopicLookupError(
      "ambiguous_topic",
      `${shown(name)} matches ${match.matches.length} topics: ${match.matches.map(described).join("; ")}; ` +
        "pass one of these IDs, or the full name or path",
      { matches: match.matches.map(asJson) },
    );
  }
  if (looksLikeId(name)) validateNewTopicId(name); // throws: "T-a/b" is a broken ID, not a name
  const invalid = options.invalid === undefined ? null : invalidIdRefusal(name, options.invalid);
  if (invalid !== null) throw invalid;
  const near = closestNotes(fold(name), notes);
  const closest =
    near.length === 0 ? "no note in the vault has a palee_id yet" : `the closest: ${near.map(described).join("; ")}`;
  throw new TopicLookupError(
    "unknown_topic",
    `no topic note is named ${shown(name)} (${closest}); ${beginHint(options.newIds ?? true)}`,
    { closest: near.map(asJson) },
  );
}

/** The largest edit distance closeTopicId accepts (so a close ID's length is within it of the new one's). */
export const CLOSE_LIMIT = 2;

/**
 * The known topic ID nearest to a new one, when it differs by a typo: case, or an edit distance of at most 2
 * (1 for short IDs, none for IDs of one or two characters after "T-"). Null when none is that close.
 */
export function closeTopicId(topicId: string, known: Iterable<string>): string | null {
  const wanted = topicId.toLowerCase();
  const slug = Math.max(0, topicId.length - 2);
  const limit = slug <= 2 ? 0 : slug <= 5 ? 1 : CLOSE_LIMIT;
  let best: { id: string; distance: number } | null = null;
  for (const id of known) {
    if (id === topicId) continue;
    const distance = editDistance(wanted, id.toLowerCase(), limit);
    if (distance > limit) continue;
    if (best === null || distance < best.distance || (distance === best.distance && id < best.id)) {
      best = { id, distance };
    }
  }
  return best?.id ?? null;
}

/** The notice for a topic ID that no topic note and no session has (printed on stderr by the CLI). */
export function newTopicNotice(topicId: string, known: Iterable<string>): string {
  const close = closeTopicId(topicId, known);
  return `new topic ${topicId}` + (close === null ? "" : `; did you mean ${close}?`);
}

/**
 * What a face says of a topic ID that no topic note and no session has, where it only reads the topic (context,
 * latest, list): most likely a typo (issue 35 §3), so it names a close one ("did you mean").
 */
export function unknownTopicIdText(topicId: string, known: Iterable<string>): string {
  const close = closeTopicId(topicId, known);
  return `no session or topic note has ${topicId}` + (close === null ? "" : `; did you mean ${close}?`);
}

/**
 * The refusal of a topic ID that nothing has, where a face begins no new topic (a link, the app's command
 * line): unknown_topic, naming a close ID (`closest` in JSON) and where a new topic begins.
 */
export function unknownTopicIdRefusal(topicId: string, known: Iterable<string>): TopicLookupError {
  const close = closeTopicId(topicId, known);
  const mean = close === null ? "" : ` (did you mean ${close}?)`;
  return new TopicLookupError("unknown_topic", `no session or topic note has ${topicId}${mean}; ${beginHint(false)}`, {
    closest: close === null ? [] : [{ topic_id: close }],
  });
}
