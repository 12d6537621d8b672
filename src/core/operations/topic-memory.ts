import type { TopicMemory } from "../records/hot-memory";
import { nextActionOf } from "../records/hot-memory";
import type { ConfirmedSession } from "../records/records";
import { withBody } from "../scan";
import type { SessionContext } from "./context";

/*
 * The working memory of one topic (contract §2 hot.md, version 3), found by reading as few notes as it can:
 * the topic's sessions newest first, each read (body included) only until one has a Next action. A topic
 * whose newest session has one costs one read; a session ended without one costs one more per such session,
 * and a session that marked it done (next_done) ends the walk.
 */

/** One of a topic's sessions, read when needed (with its body); null: the source turned out untrustworthy. */
export type SessionLoad = () => Promise<ConfirmedSession | null>;

/** `topicId`'s memory from its sessions (newest first); null when a load said its source cannot be trusted. */
export async function memoryFrom(topicId: string, loads: Iterable<SessionLoad>): Promise<TopicMemory | null> {
  let newest: ConfirmedSession | null = null;
  for (const load of loads) {
    const session = await load();
    if (session === null) return null;
    if (session.topicId !== topicId) continue; // another topic rendered alike (a legacy ID): not this one
    newest ??= session;
    if (nextActionOf(session) !== null) return { topicId, newest, carried: session === newest ? null : session };
    // Done in this session (next_done, contract §4c): nothing older is carried past it.
    if (session.nextDone === true) return { topicId, newest, carried: null };
  }
  return { topicId, newest, carried: null };
}

/** `topicId`'s memory from every confirmed session, newest first (a full scan: bodies read only if pending). */
export async function memoryOfList(
  ctx: SessionContext,
  topicId: string,
  newestFirst: readonly ConfirmedSession[],
): Promise<TopicMemory> {
  // Lazily: the walk usually stops at the topic's newest session, long before the end of a long history.
  function* loads(): Generator<SessionLoad> {
    for (const s of newestFirst) if (s.topicId === topicId) yield () => withBody(ctx.ports.store, s, ctx.offsetAt);
  }
  return (await memoryFrom(topicId, loads())) ?? { topicId, newest: null, carried: null };
}

/** Memories by topic for one view write: each topic's loaded once, until `clear` (a retry after a conflict). */
export function memoryCache(load: (topicId: string) => Promise<TopicMemory>): {
  get: (topicId: string) => TopicMemory | undefined;
  load: (topicId: string) => Promise<void>;
  clear: () => void;
} {
  const known = new Map<string, TopicMemory>();
  return {
    get: (topicId) => known.get(topicId),
    load: async (topicId) => void known.set(topicId, await load(topicId)),
    clear: () => known.clear(),
  };
}
