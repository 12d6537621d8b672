/**
 * The CLI's `--topic` (contract §4 "finding a topic by name"), resolved once before a command runs its
 * operation, so a refusal writes nothing. A topic ID is used as typed; it costs no vault scan when hot.md or
 * index.md already has it (a `start --topic T-known` stays as fast as before). A name, or a new ID (for the
 * "did you mean" notice), reads the topic notes' frontmatter (src/node/topic-notes.ts).
 */
import { TOPIC_ID_PATTERN } from "../core/records/ids";
import { knownIndexText } from "../core/records/index-text";
import {
  CLOSE_LIMIT,
  classifyTopicValue,
  closeTopicId,
  findTopicByName,
  newTopicNotice,
  topicIdForName,
} from "../core/topics/resolve";
import type { TopicNote } from "../core/topics/resolve";
import type { CommandContext } from "./commands/command";
import { UsageError, isPaleeError } from "../core/errors";

/** What comes before an index line's topic: `- [[S-…]] - Topic: T-… (2026-08-14, 45 min)` (session-index.ts). */
const TOPIC_KEY = " - Topic: ";

/**
 * The distinct topic IDs index.md's lines name whose length is within `within` of `length`: the only ones that
 * can be close to a new ID (closeTopicId: case or an edit distance of at most 2). Found by the text's own search,
 * so that 30 000 lines cost no match objects and only the candidates become strings.
 */
export function indexTopicsNear(text: string, length: number, within: number): Set<string> {
  const found = new Set<string>();
  for (let at = text.indexOf(TOPIC_KEY); at >= 0;) {
    const from = at + TOPIC_KEY.length;
    const end = text.indexOf(" (", from);
    if (end < 0) break;
    if (Math.abs(end - from - length) <= within) {
      const id = text.slice(from, end);
      if (!found.has(id) && TOPIC_ID_PATTERN.test(id)) found.add(id);
    }
    at = text.indexOf(TOPIC_KEY, from);
  }
  return found;
}

async function readOrNull(read: () => Promise<string | null>): Promise<string | null> {
  try {
    return await read();
  } catch {
    return null; // the operation itself reports an unreadable view
  }
}

/**
 * The topic IDs of the sessions that may be close to a new one, for its "did you mean": from index.md (only those
 * of a close length: indexTopicsNear) when its head reads as written (its lines are not checked one by one: a
 * damaged line only changes the suggestion), else from a scan.
 */
async function sessionTopics(ctx: CommandContext, index: string | null, topicId: string): Promise<Set<string>> {
  if (index !== null && knownIndexText(index) !== null) return indexTopicsNear(index, topicId.length, CLOSE_LIMIT);
  try {
    const scan = await ctx.core.scan();
    return new Set([...scan.confirmed, ...scan.drafts].map((s) => s.topicId));
  } catch {
    return new Set();
  }
}

function topicNotes(ctx: CommandContext): TopicNote[] {
  return ctx.store.topicNotes([ctx.core.layout.folder]);
}

/**
 * The link to the topic note of `topicId` (default: hot.md's active topic) as a session records it in
 * `topic_note`, `[[path without .md]]`, or null when no topic note has that ID (contract §5 version 4: a
 * session started from the CLI, MCP or a hook records topic_note as the plugin does). The first by path when
 * several notes carry the ID.
 */
export async function topicNoteLink(ctx: CommandContext, topicId: string | null): Promise<string | null> {
  const id = topicId ?? (await readOrNull(async () => (await ctx.core.readHot()).state.activeTopic));
  if (id === null) return null;
  const paths = topicNotes(ctx)
    .filter((n) => n.topicId === id)
    .map((n) => n.path)
    .sort();
  return paths.length === 0 ? null : `[[${paths[0].replace(/\.md$/i, "")}]]`;
}

/** A topic ID as typed: known, or new (then a notice on stderr, once the command succeeded, naming a close ID). */
async function checkId(ctx: CommandContext, topicId: string, reads = false): Promise<void> {
  const hot = await readOrNull(async () => (await ctx.core.readHot()).state.activeTopic);
  if (hot === topicId) return;
  const index = await readOrNull(() => ctx.store.read(ctx.core.layout.index));
  if (index?.includes(` - Topic: ${topicId} (`)) return;
  const noteIds = topicNotes(ctx).map((n) => n.topicId);
  if (noteIds.includes(topicId)) return;
  const known = new Set([...noteIds, ...(await sessionTopics(ctx, index, topicId))]);
  if (hot !== null) known.add(hot);
  if (known.has(topicId)) return;
  if (!reads) {
    ctx.notices.push(newTopicNotice(topicId, known));
    return;
  }
  // context, latest, list of a topic nothing has: most likely a typo (issue 35 §3).
  const close = closeTopicId(topicId, known);
  ctx.notices.push(`no session or topic note has ${topicId}` + (close === null ? "" : `; did you mean ${close}?`));
}

/**
 * The topic ID a `--topic` value stands for, or null for none (blank, "(none)", absent: the operation then
 * falls back as it always did). Throws invalid_topic, ambiguous_topic or unknown_topic (exit 2). `begins`:
 * whether the command can begin a session on the topic (start, draft, log), and so says when an ID is new;
 * end, pause and continue only act on the open session, whose topic is never new; a command that "reads" one
 * (context, latest, list) says when nothing has the ID, naming a close one ("did you mean").
 */
export async function topicOption(
  ctx: CommandContext,
  raw: string | undefined,
  begins: "begins" | "acts on the open session" | "reads",
): Promise<string | null> {
  const value = classifyTopicValue(raw);
  if (value.kind === "none") return null;
  if (value.kind === "id") {
    if (begins !== "acts on the open session") await checkId(ctx, value.topicId, begins === "reads");
    return value.topicId;
  }
  const invalid: TopicNote[] = [];
  const notes = ctx.store.topicNotes([ctx.core.layout.folder], invalid);
  try {
    return topicIdForName(value.name, notes);
  } catch (error) {
    throw isPaleeError(error) && error.kind === "unknown_topic" ? (badIdRefusal(value.name, invalid) ?? error) : error;
  }
}

/** A name that finds only a note whose palee_id is not a topic ID: refused for that reason (issue 35 §3). */
function badIdRefusal(name: string, invalid: readonly TopicNote[]): UsageError | null {
  const match = findTopicByName(name, invalid);
  const note = match.kind === "found" ? match.note : match.kind === "ambiguous" ? match.matches[0] : null;
  if (note === null) return null;
  return new UsageError(
    `the note ${note.path} has palee_id ${JSON.stringify(note.topicId)}, which is not a topic ID ` +
      '(T- then a letter or digit, then letters, digits, ".", "_" or "-"): correct its palee_id; nothing was written',
    "invalid_topic",
  );
}
