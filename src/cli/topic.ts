/**
 * The CLI's `--topic` (contract §4 "finding a topic by name"), resolved once before a command runs its
 * operation, so a refusal writes nothing. A topic ID is used as typed; it costs no vault scan when hot.md or
 * index.md already has it (a `start --topic T-known` stays as fast as before). A name, or a new ID (for the
 * "did you mean" notice), reads the topic notes' frontmatter (src/node/topic-notes.ts), once per command.
 */
import { indexNamesTopic, indexTopicsNear } from "../core/records/index-line";
import { knownIndexText } from "../core/records/index-text";
import type { TopicNotes } from "../core/topics";
import { CLOSE_LIMIT, classifyTopicValue, newTopicNotice, topicIdForName, unknownTopicIdText } from "../core/topics";
import type { CommandContext } from "./commands/command";

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

const read = new WeakMap<CommandContext, TopicNotes>();

/**
 * The vault's topic notes, outside the session folder: the CLI's one reader of them (NodeStore.topicNotes),
 * read at most once per command (a command is one short process, or one MCP tool call).
 */
export function topicNotesOf(ctx: CommandContext): TopicNotes {
  let notes = read.get(ctx);
  if (notes === undefined) {
    notes = ctx.store.topicNotes([ctx.core.layout.folder]);
    read.set(ctx, notes);
  }
  return notes;
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
  const paths = topicNotesOf(ctx)
    .notes.filter((n) => n.topicId === id)
    .map((n) => n.path)
    .sort();
  return paths.length === 0 ? null : `[[${paths[0].replace(/\.md$/i, "")}]]`;
}

/** A topic ID as typed: known, or new (then a notice on stderr, once the command succeeded, naming a close ID). */
async function checkId(ctx: CommandContext, topicId: string, reads = false): Promise<void> {
  const hot = await readOrNull(async () => (await ctx.core.readHot()).state.activeTopic);
  if (hot === topicId) return;
  const index = await readOrNull(() => ctx.store.read(ctx.core.layout.index));
  if (index !== null && indexNamesTopic(index, topicId)) return;
  const noteIds = topicNotesOf(ctx).notes.map((n) => n.topicId);
  if (noteIds.includes(topicId)) return;
  const known = new Set([...noteIds, ...(await sessionTopics(ctx, index, topicId))]);
  if (hot !== null) known.add(hot);
  if (known.has(topicId)) return;
  // context, latest, list of a topic nothing has: most likely a typo (issue 35 §3).
  ctx.notices.push(reads ? unknownTopicIdText(topicId, known) : newTopicNotice(topicId, known));
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
  const { notes, invalid } = topicNotesOf(ctx);
  return topicIdForName(value.name, notes, { invalid });
}
