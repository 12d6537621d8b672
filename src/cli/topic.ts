/**
 * The CLI's `--topic` (contract §4 "finding a topic by name"), resolved once before a command runs its
 * operation, so a refusal writes nothing. A topic ID is used as typed; it costs no vault scan when hot.md or
 * index.md already has it (a `start --topic T-known` stays as fast as before). A name, or a new ID (for the
 * "did you mean" notice), reads the topic notes' frontmatter (src/node/topic-notes.ts).
 */
import { knownIndexText } from "../core/index-text";
import { classifyTopicValue, newTopicNotice, topicIdForName } from "../core/topics/resolve";
import type { TopicNote } from "../core/topics/resolve";
import type { CommandContext } from "./commands/command";

/** An index line's topic: `- [[S-…]] - Topic: T-… (2026-08-14, 45 min)` (session-index.ts). */
const INDEX_TOPIC = / - Topic: (T-[A-Za-z0-9][A-Za-z0-9._-]{0,120}) \(/g;

async function readOrNull(read: () => Promise<string | null>): Promise<string | null> {
  try {
    return await read();
  } catch {
    return null; // the operation itself reports an unreadable view
  }
}

/**
 * The topic IDs of the sessions, for the "did you mean" of a new ID: from index.md when its head reads as written
 * (its lines are not checked one by one: a damaged line only changes the suggestion), else from a scan.
 */
async function sessionTopics(ctx: CommandContext, index: string | null): Promise<Set<string>> {
  if (index !== null && knownIndexText(index) !== null) {
    return new Set(Array.from(index.matchAll(INDEX_TOPIC), (m) => m[1]));
  }
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

/** A topic ID as typed: known, or new (then a notice on stderr, once the command succeeded, naming a close ID). */
async function checkId(ctx: CommandContext, topicId: string): Promise<void> {
  const hot = await readOrNull(async () => (await ctx.core.readHot()).state.activeTopic);
  if (hot === topicId) return;
  const index = await readOrNull(() => ctx.store.read(ctx.core.layout.index));
  if (index?.includes(` - Topic: ${topicId} (`)) return;
  const noteIds = topicNotes(ctx).map((n) => n.topicId);
  if (noteIds.includes(topicId)) return;
  const known = new Set([...noteIds, ...(await sessionTopics(ctx, index))]);
  if (hot !== null) known.add(hot);
  if (known.has(topicId)) return;
  ctx.notices.push(newTopicNotice(topicId, known));
}

/**
 * The topic ID a `--topic` value stands for, or null for none (blank, "(none)", absent: the operation then
 * falls back as it always did). Throws invalid_topic, ambiguous_topic or unknown_topic (exit 2). `begins`:
 * whether the command can begin a session on the topic (start, draft, log), and so says when an ID is new;
 * end, pause and continue only act on the open session, whose topic is never new.
 */
export async function topicOption(
  ctx: CommandContext,
  raw: string | undefined,
  begins: "begins" | "acts on the open session",
): Promise<string | null> {
  const value = classifyTopicValue(raw);
  if (value.kind === "none") return null;
  if (value.kind === "id") {
    if (begins === "begins") await checkId(ctx, value.topicId);
    return value.topicId;
  }
  return topicIdForName(value.name, topicNotes(ctx));
}
