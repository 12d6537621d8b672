import type { ReadResult } from "../records/frontmatter";
import { bodyAfterFrontmatter, classifyRecord, updateFrontmatterFields } from "../records/frontmatter";
import type { HotState, TopicMemory } from "../records/hot-memory";
import { hotStateOf, renderHot, renderHotBody, renderHotFrontmatter } from "../records/hot-memory";
import type { ConfirmedSession } from "../records/records";
import { compareNewestFirst } from "../records/records";
import { partitionPoint } from "../scan/sorted";
import { withBody } from "../scan";
import type { Scan } from "../scan";
import { renderIndexOfJoined } from "../records/session-index";
import type { SessionContext } from "./context";
import { everyNote, today } from "./reading";
import { memoryCache, memoryOfList } from "./topic-memory";
import type { ViewChange } from "./writes";
import { writeView, writeViewWith } from "./writes";

/** hot.md's open-session fields. */
export interface Pointer {
  activeTopic: string;
  startedAt: string;
  openDraft: string;
  device: string;
}

/** The newest confirmed session with its body (hot.md's body is made from it), or null. */
export async function newestWithBody(
  ctx: SessionContext,
  newestFirst: readonly ConfirmedSession[],
): Promise<ConfirmedSession | null> {
  return newestFirst[0] ? withBody(ctx.ports.store, newestFirst[0], ctx.offsetAt) : null;
}

/**
 * Points hot.md at an open session: in a valid hot.md only the pointer fields change, and the body too with
 * `replaceBody` (start: the memory of the topic started, contract §2 hot.md); text without frontmatter keeps
 * its body and gains frontmatter; anything else is rebuilt (body from `memory`, last_session from `newest`).
 * `accept` sees hot.md as it is at write time and may leave it alone (`pointed` is then false).
 */
export async function pointHotAt(
  ctx: SessionContext,
  pointer: Pointer,
  options: {
    newest: ConfirmedSession | null;
    memory: TopicMemory | null;
    replaceBody?: boolean;
    accept?: (read: ReadResult) => boolean;
    stampUpdated?: boolean;
  },
): Promise<{ text: string | null; pointed: boolean; seen: HotState; warnings: string[] }> {
  const write = (current: string | null): ViewChange<{ pointed: boolean; seen: HotState }> => {
    const read = classifyRecord(current);
    const seen = hotStateOf(read);
    const pointed = options.accept?.(read) ?? true;
    return { next: pointed ? pointedText(current, read) : null, value: { pointed, seen } };
  };
  const pointedText = (current: string | null, read: ReadResult): string => {
    const date = today(ctx);
    if (read.state === "ok") {
      const updated = updateFrontmatterFields(current ?? "", {
        active_topic: pointer.activeTopic,
        started_at: pointer.startedAt,
        open_draft: pointer.openDraft,
        device: pointer.device,
        ...(options.stampUpdated ? { updated_at: date } : {}),
      });
      if (!options.replaceBody) return updated;
      return updated.slice(0, updated.length - bodyAfterFrontmatter(updated).length) + renderHotBody(options.memory);
    }
    const state = { ...pointer, lastSession: options.newest?.sessionId ?? null };
    if (read.state === "no-frontmatter") return renderHotFrontmatter(state, date) + read.body;
    return renderHot(state, options.memory, date);
  };
  const { text, value, warnings } = await writeViewWith(ctx, ctx.layout.hot, write);
  return { text, ...value, warnings };
}

/** Clears hot.md's pointer if it names `draftId`; leaves anything else (and a damaged hot.md) alone. */
export async function closePointerTo(ctx: SessionContext, draftId: string): Promise<void> {
  await writeView(ctx, ctx.layout.hot, (text) => {
    const read = classifyRecord(text);
    if (read.state !== "ok" || hotStateOf(read).openDraft !== draftId) return null;
    return updateFrontmatterFields(text ?? "", { started_at: null, open_draft: null, device: null });
  });
}

/** A view's pointer update: the open session is closed if it is one of `draftIds`, else left as it is. */
export function closingPointerTo(draftIds: readonly string[]): (current: HotState) => HotState {
  return (current) =>
    current.openDraft !== null && draftIds.includes(current.openDraft)
      ? { ...current, startedAt: null, openDraft: null, device: null }
      : current;
}

/**
 * Rewrites index.md, then hot.md, from the confirmed sessions. hot.md comes last: clearing the pointer is the
 * final write, so a crash or conflict before it leaves the evidence a retry needs. `pointer` decides the
 * open-session fields from hot.md as it is at write time; the body is the active topic's memory. A hot.md
 * of another palee_schema is rewritten only with `replaceForeign` (rebuild, resume); else it is reported.
 */
export async function writeViews(
  ctx: SessionContext,
  confirmed: readonly ConfirmedSession[],
  pointer: (current: HotState, newest: ConfirmedSession | null) => HotState,
  options: { replaceForeign?: boolean } = {},
): Promise<string[]> {
  let sessions = confirmed;
  let newest = await newestWithBody(ctx, sessions);
  const memories = memoryCache((topicId) => memoryOfList(ctx, topicId, sessions));
  // After a conflict (another device's end or rebuild, synced meanwhile) the retry derives the view from the
  // session notes as they are now, so a session the other writer added is not dropped from it again.
  const refresh = async (): Promise<void> => {
    const fresh = (await ctx.scan()).confirmed;
    const known = new Set(fresh.map((s) => s.path));
    sessions = confirmed
      .filter((s) => !known.has(s.path))
      .reduce<readonly ConfirmedSession[]>((list, s) => withSession(list, s), fresh);
    newest = await newestWithBody(ctx, sessions);
    memories.clear();
  };
  const index = (): string => renderIndexOfJoined(ctx.indexLines(sessions), sessions.length, today(ctx));
  await writeView(ctx, ctx.layout.index, index, refresh);
  return writeHotView(ctx, () => newest, memories, pointer, options, refresh);
}

/**
 * hot.md (the views' second write): last_session from the newest session, the body the memory of the topic
 * the pointer leaves active (no active topic: the newest session's; contract §2 hot.md). That topic is known
 * only at write time, so its memory is read first and the write computed again with it (`memories` keeps
 * what was read: each miss adds a topic, so the misses end). `refresh` runs before a retry after a conflict
 * (and clears `memories`).
 */
export async function writeHotView(
  ctx: SessionContext,
  newest: () => ConfirmedSession | null,
  memories: Pick<ReturnType<typeof memoryCache>, "get" | "load">,
  pointer: (current: HotState, newest: ConfirmedSession | null) => HotState,
  options: { replaceForeign?: boolean },
  refresh: () => Promise<void>,
): Promise<string[]> {
  const date = today(ctx);
  const written = await writeViewWith(
    ctx,
    ctx.layout.hot,
    (text): ViewChange<string | null> => {
      const read = classifyRecord(text);
      if (read.state === "schema-invalid" && !options.replaceForeign) {
        return {
          next: null,
          value: `${ctx.layout.hot} has an unsupported palee_schema; left it alone (a rebuild replaces it)`,
        };
      }
      const last = newest();
      const state = { ...pointer(hotStateOf(read), last), lastSession: last?.sessionId ?? null };
      // The topic whose memory the body is; null: no topic and no session at all (the "no history" line).
      const topic = state.activeTopic ?? last?.topicId ?? null;
      const memory = topic === null ? null : memories.get(topic);
      if (topic !== null && memory === undefined)
        return { next: null, value: null, before: () => memories.load(topic) };
      return { next: renderHot(state, memory ?? null, date), value: null };
    },
    refresh,
  );
  return written.value === null ? written.warnings : [...written.warnings, written.value];
}

/**
 * The views after `added` was written (null: nothing added, e.g. drafts trashed). After a bounded scan
 * (Scan.partial), the face's incremental update (SessionsOptions.viewsAfter) inserts the new line into a
 * trusted index.md; otherwise, or when it cannot, both views are derived from every note. Either way they end
 * exactly as a rebuild would write them; index.md first.
 */
export async function writeViewsAfter(
  ctx: SessionContext,
  added: ConfirmedSession | null,
  pointer: (current: HotState, newest: ConfirmedSession | null) => HotState,
  /** The operation's scan, from before `added`. */
  scan: Scan,
): Promise<string[]> {
  const inserted = scan.partial && ctx.viewsAfter ? await ctx.viewsAfter(ctx, added, pointer, scan) : null;
  if (inserted) return inserted;
  const confirmed = await everyNote(ctx, scan);
  const known = added === null || listed(confirmed, added);
  return writeViews(ctx, known ? confirmed : withSession(confirmed, added), pointer);
}

/** Whether `newestFirst` holds a record of `session`'s file: looked up where it sorts, not by a walk. */
function listed(newestFirst: readonly ConfirmedSession[], session: ConfirmedSession): boolean {
  const lo = partitionPoint(newestFirst.length, (i) => compareNewestFirst(newestFirst[i], session) < 0);
  for (let i = lo; i < newestFirst.length && compareNewestFirst(newestFirst[i], session) === 0; i++) {
    if (newestFirst[i].path === session.path) return true;
  }
  return false;
}

/** `newestFirst` with `session` inserted in its place (newest first): a copy, the input is shared. */
export function withSession(newestFirst: readonly ConfirmedSession[], session: ConfirmedSession): ConfirmedSession[] {
  const lo = partitionPoint(newestFirst.length, (i) => compareNewestFirst(newestFirst[i], session) <= 0);
  return [...newestFirst.slice(0, lo), session, ...newestFirst.slice(lo)];
}
