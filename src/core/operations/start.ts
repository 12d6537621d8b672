import { classifyRecord } from "../records/frontmatter";
import type { HotState } from "../records/hot-memory";
import { hotStateOf, isOpen } from "../records/hot-memory";
import { normalizeTopic, validateNewTopicId } from "../topics/ids";
import { sessionPath } from "../records/layout";
import type { Draft } from "../records/records";
import { SAVED_WITHIN_MS, pendingDrafts } from "../recovery";
import { renderDraft } from "../records/session-note";
import type { SessionContext } from "./context";
import type { OpenSession } from "./open-session";
import { openSessionOf } from "./open-session";
import { everyNote, readDraft, readHot, resolveTopic, skippedWarnings, stamp } from "./reading";
import { reconcile, scanForReconcile } from "./reconcile";
import { memoryForScan } from "./incremental-index";
import { newestWithBody, pointHotAt } from "./views";
import { pickFreeDraftId } from "./writes";

export type StartResult =
  | {
      status: "started";
      topicId: string;
      startedAt: string;
      draftId: string;
      lastSession: string | null;
      hotBody: string;
      warnings: string[];
    }
  | { status: "drafts_pending"; drafts: Draft[] }
  | { status: "already_open"; open: OpenSession }
  | { status: "kept"; open: OpenSession };

export interface StartOptions {
  /** An explicit topic (picker choice, --topic): validated as new input. */
  topic?: string | null;
  /** The active note's palee_id (plugin only). */
  activeNoteTopic?: string | null;
  /** What to do when a session is already open (default refuse). */
  ifOpen?: "refuse" | "keep";
  /** Drafts the user chose to ignore for this start (interactive recovery). */
  ignoreDrafts?: ReadonlySet<string>;
  /** Start even though other drafts are pending, leaving them as they are (CLI --ignore-pending). */
  ignorePending?: boolean;
  /** Optional wikilink to the topic note, recorded in the draft and later in the confirmed note. */
  topicNote?: string | null;
}

/** A start, also on behalf of an agent (the CLI, `palee mcp` and the agent hook pass `agent`). */
export interface AgentStartOptions extends StartOptions {
  /** Who opens the session when it is not the learner by hand (CLI --agent, contract §4b): kept in the draft. */
  agent?: string | null;
}

/**
 * Opens a session: hot.md's pointer first, then the draft (create-only). A crash between the two leaves a
 * pointer to a missing draft, which the next reconcile closes: nothing to lose.
 */
export async function start(ctx: SessionContext, options: AgentStartOptions): Promise<StartResult> {
  validateStartInput(options);
  const hotBefore = await readHot(ctx);
  // The notes written in the last SAVED_WITHIN_MS too: a new draft's ID must be none they saved (savedIn).
  const before = await scanForReconcile(ctx, hotBefore.state, [], [ctx.ports.clock.now() - SAVED_WITHIN_MS]);
  const { scan, warnings } = await reconcile(ctx, before, hotBefore);
  const hot = await readHot(ctx);

  const absorbed = ctx.absorbedIn(scan.confirmed);
  const pending = options.ignorePending
    ? []
    : pendingDrafts(hot.state, scan.drafts, absorbed, ctx.offsetAt, options.ignoreDrafts);
  if (pending.length > 0) return { status: "drafts_pending", drafts: pending };
  const open = await alreadyOpen(ctx, hot.state, options);
  if (open) return open;

  const topicId = resolveTopic(options.topic, [options.activeNoteTopic ?? null, hot.state.activeTopic]);
  const startedAt = stamp(ctx, ctx.ports.clock.now());
  const draftId = await pickFreeDraftId(ctx, scan);
  // last_session comes from the newest session only when hot.md must be rebuilt; a bounded scan may not hold it.
  // The body is the memory of the topic being started (contract §2 hot.md, version 3), whichever was active.
  const known = !scan.partial || hot.read.state !== "ok";
  const newest = known ? await newestWithBody(ctx, await everyNote(ctx, scan)) : null;
  const memory = await memoryForScan(ctx, topicId, scan);
  const pointer = { activeTopic: topicId, startedAt, openDraft: draftId, device: ctx.ports.device };

  const written = await pointHotAt(ctx, pointer, {
    newest,
    memory,
    replaceBody: true,
    stampUpdated: true,
    accept: (read) => {
      const current = hotStateOf(read);
      return !isOpen(current) || current.openDraft === hot.state.openDraft;
    },
  });
  warnings.push(...written.warnings);
  if (!written.pointed) {
    // Another start won the race: hot.md names its session.
    const kept = await alreadyOpen(ctx, written.seen, options);
    if (kept) return kept;
  }

  const agent = options.agent ?? null;
  const draft = { draftId, topicId, startedAt, lastCheckpointAt: startedAt, device: ctx.ports.device, agent };
  const draftText = renderDraft({ ...draft, topicNote: options.topicNote ?? null, notes: "" });
  await ctx.ports.store.create(sessionPath(ctx.layout, `${draftId}.md`), draftText);
  // The working memory as written (not read back: a cache may lag behind the write).
  const after = classifyRecord(written.text);
  return {
    status: "started",
    topicId,
    startedAt,
    draftId,
    lastSession: known ? (newest?.sessionId ?? null) : hot.state.lastSession,
    hotBody: after.state === "ok" || after.state === "no-frontmatter" ? after.body.trim() : "",
    warnings: [...warnings, ...skippedWarnings(scan)],
  };
}

/** Bad input is refused first, also when the answer would be drafts_pending, already_open or kept. */
function validateStartInput(options: StartOptions): void {
  const explicit = normalizeTopic(options.topic);
  if (explicit !== null) validateNewTopicId(explicit);
}

/** The session `hot` names, reported as already open (or kept), or null when there is none. */
async function alreadyOpen(ctx: SessionContext, hot: HotState, options: StartOptions): Promise<StartResult | null> {
  if (!isOpen(hot)) return null;
  const open = openSessionOf(ctx, hot, await readDraft(ctx, hot.openDraft));
  return open ? { status: options.ifOpen === "keep" ? "kept" : "already_open", open } : null;
}
