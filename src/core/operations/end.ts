import { UsageError } from "../errors";
import type { HotState } from "../records/hot-memory";
import { EMPTY_HOT, isOpen } from "../records/hot-memory";
import type { ConfirmedSession, Draft } from "../records/records";
import type { RecallFields, RecallOptions } from "../review/recall";
import { recallFields } from "../review/recall";
import { chooseSitting, isAliveElsewhere, isThisDevice, savedIn } from "../recovery";
import type { Scan } from "../scan";
import { withBody } from "../scan";
import { appendNotes, unrecordedWarning } from "../records/session-note";
import { LONG_SILENCE_MS, endStart } from "../honest-time";
import type { EndAtSession } from "../honest-time";
import type { OpenRef } from "./checkpoint";
import type { SessionContext } from "./context";
import type { EndTime } from "../honest-time";
import { formatBreaks, resolveEndAt } from "../honest-time";
import { refuseBeforeReconcile, refuseVanishedTaken } from "./vanished-draft";
import { refuseUnreadableDraft, refuseUnusableOpenDraft, requireOpen } from "./guards";
import { readHot, resolveTopic, skippedWarnings, stamp, startOf } from "./reading";
import { timedNotes } from "./checkpoint";
import { reconcile, scanForReconcile, startRecord } from "./reconcile";
import { hasCarriedNextAction } from "./brief";
import { writeViewsAfter } from "./views";
import { afterSaving, trashDraft, writeConfirmed } from "./writes";

export interface EndOptions extends RecallOptions {
  topic?: string | null;
  /**
   * The open session the caller means (the plugin: the session its timer shows). If hot.md no longer points
   * at it, nothing new is recorded: it was already saved (reported), or it is no longer open (refused). Its
   * topic is used when hot.md cannot tell (damaged), never as an explicit topic.
   */
  open?: OpenRef;
  summary?: string | null;
  nextAction?: string | null;
  /** When the session ended (EndTime). Not given: at the pause, or now unless after a long silence. */
  endAt?: EndTime;
  /** completed (default) or interrupted: an agent that knows the episode was cut short says so (contract §4b). */
  outcome?: "completed" | "interrupted";
  /** A last note, merged into the session's Notes as a checkpoint's is ("- HH:MM …", contract §4b). */
  note?: string | null;
  /** The carried next action was done in this session (contract §4c): written as `next_done: true`. */
  done?: boolean;
}

/** An end, also on behalf of an agent (the CLI, `palee mcp` and the agent hook pass `agent`). */
export interface AgentEndOptions extends EndOptions {
  /**
   * Who asks (CLI --agent, contract §4b): only a session this agent opened is ended; any other open session is
   * left alone (not_this_agent, agent-end.ts), and no draft another opened is absorbed.
   */
  agent?: string | null;
}

export interface EndResult {
  discardedEmpty?: undefined;
  session: ConfirmedSession;
  absorbedDrafts: string[];
  /** True when this end had already been completed (a retry after a crash or a conflict): nothing new written. */
  alreadySaved: boolean;
  warnings: string[];
}

/**
 * An agent's session that ended having recorded nothing (contract §5 version 4, agents): its draft went to the
 * trash, no note was written. `discardedEmpty` is the open session's draft.
 */
export interface DiscardedEnd {
  discardedEmpty: string;
  topicId: string;
  absorbedDrafts: string[];
  warnings: string[];
}

/** What an end did: saved the session, or (an agent's empty session) discarded it. */
export type EndAnswer = EndResult | DiscardedEnd;

/** Ends the topic's session: (1) the confirmed note, (2) the drafts to the trash, (3) index.md, then hot.md. */
export function end(ctx: SessionContext, options: AgentEndOptions): Promise<EndResult> {
  // Without discarding, every answer is a saved session.
  return settle(ctx, options, false) as Promise<EndResult>;
}

/** As end, and an agent's session that recorded nothing is discarded (contract §5 version 4, agents). */
export function endOrDiscard(ctx: SessionContext, options: AgentEndOptions): Promise<EndAnswer> {
  return settle(ctx, options, true);
}

async function settle(ctx: SessionContext, options: AgentEndOptions, discard: boolean): Promise<EndAnswer> {
  const recall = validateEndOptions(options);
  const hotBefore = await readHot(ctx);
  const expected = options.open;
  if (
    expected &&
    hotBefore.read.state === "ok" &&
    !(isOpen(hotBefore.state) && hotBefore.state.openDraft === expected.draftId)
  ) {
    // Ended meanwhile (a second click, another window): report the saved session, never save it twice.
    const finished = ctx.absorbedIn((await ctx.scan()).confirmed).get(expected.draftId);
    if (finished) return saved(finished, await lostDetails(ctx, options, finished));
    requireOpen(hotBefore.state, expected.draftId);
  }
  const topicId = resolveTopic(options.topic, [hotBefore.state.activeTopic, expected?.topicId ?? null]);
  const before = await scanForReconcile(ctx, hotBefore.state, expected ? [expected.draftId] : []);
  refuseBeforeReconcile(ctx, hotBefore.state, before, topicId, options);
  const { scan, warnings, closed } = await reconcile(ctx, before, hotBefore);
  const hotAfter = await readHot(ctx);
  const now = ctx.ports.clock.now();
  const skipped = skippedWarnings(scan);

  // An end that already happened (a retry after a crash or a conflict): report it, never save it twice.
  const finishedIn =
    isOpen(hotBefore.state) && hotBefore.state.activeTopic === topicId
      ? savedIn(
          ctx.absorbedIn(before.confirmed),
          hotBefore.state.openDraft,
          startOf(ctx, hotBefore.state),
          ctx.offsetAt,
        )
      : undefined;
  if (finishedIn) {
    warnings.push(...(await writeViewsAfter(ctx, null, (current) => current, scan)));
    return saved(finishedIn, [...warnings, ...(await lostDetails(ctx, options, finishedIn)), ...skipped]);
  }
  const agent = options.agent ?? null;
  const taken = takeDrafts(ctx, { scan, before, hot: hotAfter.state, topicId, now, expected, agent });
  if ("savedIn" in taken) {
    return saved(taken.savedIn, [...warnings, ...(await lostDetails(ctx, options, taken.savedIn))]);
  }
  // A pointer closed only because its draft is gone still dates the session (tier 2).
  const dating = startRecord(ctx, hotBefore.state, hotAfter.state, closed);
  const done = options.done ? await doneFor(ctx, topicId) : { nextDone: false, warnings: [] };
  const { nextDone } = done;
  const recorded = await recordEnd(ctx, { ...taken, topicId, dating, now, options, recall, nextDone, discard });
  if ("discarded" in recorded) return discardEmpty(ctx, { taken, topicId, scan, warnings: [...warnings, ...skipped] });
  const { session } = recorded;
  const views = await afterSaving(session, async () => {
    for (const d of taken.absorbed) await trashDraft(ctx, d);
    return writeViewsAfter(ctx, session, closeEnded(taken, topicId), scan);
  });
  warnings.push(...taken.leftAlone, ...done.warnings, ...recorded.warnings, ...views);
  const absorbedDrafts = taken.absorbed.map((d) => d.draftId);
  return { session, absorbedDrafts, alreadySaved: false, warnings: [...warnings, ...skipped] };
}

function saved(session: ConfirmedSession, warnings: string[]): EndResult {
  return { session, absorbedDrafts: session.absorbedDrafts, alreadySaved: true, warnings };
}

/** A retried end's summary and next action that its saved session lacks: warned, never silently dropped. */
async function lostDetails(ctx: SessionContext, options: EndOptions, session: ConfirmedSession): Promise<string[]> {
  if (!options.summary && !options.nextAction) return [];
  const body = (await withBody(ctx.ports.store, session, ctx.offsetAt)).body;
  const warning = unrecordedWarning(session.path, body, options);
  return warning === null ? [] : [warning];
}

interface Taken {
  /** The drafts this end records and trashes. */
  absorbed: Draft[];
  /** The topic's drafts alive on another device: left alone. */
  elsewhere: Draft[];
  /** The open session this end found in hot.md, if any. */
  seenOpen: string | null;
  /** The drafts of the topic left alone, and why. */
  leftAlone: string[];
}

/**
 * The topic's drafts this end takes: the open session's sitting (recovery/sittings.ts), without the drafts
 * alive on another device and, when a session of the topic is open, those that started before it
 * (interrupted sessions the learner chose to leave alone). When hot.md cannot tell (damaged, missing), the
 * caller's open session (the plugin's timer) anchors the sitting, else the newest sitting while it may still
 * be running: never, for want of a pointer, every older draft of the topic (contract §4 end, version 3).
 */
function takeDrafts(
  ctx: SessionContext,
  at: {
    scan: Scan;
    before: Scan;
    hot: HotState;
    topicId: string;
    now: number;
    expected: OpenRef | undefined;
    agent: string | null;
  },
): Taken | { savedIn: ConfirmedSession } {
  const { scan, hot, topicId, expected } = at;
  // An agent's end takes only the drafts it opened: never the learner's, never another agent's (contract §4b).
  const ofTopic = scan.drafts.filter((d) => d.topicId === topicId && (at.agent === null || d.agent === at.agent));
  const elsewhere = ofTopic.filter((d) => isAliveElsewhere(d, ctx.ports.device, at.now, ctx.graceMs));
  const callerDraft = expected && !isOpen(hot) ? (ofTopic.find((d) => d.draftId === expected.draftId) ?? null) : null;
  if (expected && !isOpen(hot) && callerDraft === null) {
    const savedIn = ctx.absorbedIn(at.before.confirmed).get(expected.draftId);
    if (savedIn) return { savedIn };
    refuseUnreadableDraft(ctx, expected.draftId, scan);
    requireOpen(EMPTY_HOT, expected.draftId);
  }
  const openOfTopic = isOpen(hot) && hot.activeTopic === topicId;
  const openStart = openOfTopic ? startOf(ctx, hot) : (callerDraft?.startedMs ?? null);
  const openId = isOpen(hot) ? hot.openDraft : (callerDraft?.draftId ?? null);
  const here = ofTopic.filter((d) => !elsewhere.includes(d));
  const afterOpen = (d: Draft): boolean =>
    openStart === null || d.draftId === openId || (d.startedMs !== null && d.startedMs >= openStart);
  const aliveMs = openOfTopic ? Number.POSITIVE_INFINITY : Math.max(ctx.graceMs, LONG_SILENCE_MS);
  const anchor = here.find((d) => d.draftId === openId) ?? null;
  const choice = chooseSitting(here.filter(afterOpen), anchor, { now: at.now, graceMs: ctx.graceMs, aliveMs });
  const leftAlone = [
    ...elsewhere.map((d) => `left ${d.draftId} alone: it is open on ${d.device ?? "another device"}`),
    ...here
      .filter((d) => !afterOpen(d))
      .map((d) => `left ${d.draftId} alone: it started before the open session (recover it separately)`),
    ...choice.separate.map((d) => separateWarning(d, anchor !== null || openOfTopic)),
    ...choice.timeless.map((d) => `left ${d.draftId} alone: its times cannot be read (recover it separately)`),
  ];
  if (openOfTopic && !scan.drafts.some((d) => d.draftId === hot.openDraft)) refuseUnusableOpenDraft(ctx, hot, scan);
  // Nothing of this device to end, and the topic's session is open on another device (alive, or its draft
  // not synced here yet): recording it here would count that sitting twice.
  const takenOver = elsewhere.find((d) => d.draftId === hot.openDraft);
  const openHere = isThisDevice(hot.device, ctx.ports.device) && !takenOver;
  if (choice.taken.length === 0 && ((openOfTopic && !openHere) || (!openOfTopic && elsewhere.length > 0))) {
    const device = takenOver?.device ?? (openOfTopic ? hot.device : elsewhere[0]?.device) ?? "another device";
    throw new UsageError(`the session on ${topicId} is open on ${device}; end it there`, "session_open_elsewhere");
  }
  return { absorbed: choice.taken, elsewhere, seenOpen: isOpen(hot) ? hot.openDraft : null, leftAlone };
}

/** Why a draft of another sitting was left alone: it went silent before the open one began, or long ago. */
function separateWarning(draft: Draft, anchored: boolean): string {
  const last = draft.lastCheckpointAt ?? draft.startedAt ?? "?";
  const why = anchored
    ? `a separate, interrupted session (no activity since ${last}, longer than the grace period before this one)`
    : `an interrupted session (no activity since ${last}, and no session is open)`;
  return `left ${draft.draftId} alone: it is ${why}; recover it separately`;
}

/**
 * The refusal when tier 3 would be the start (contract §4 end, version 3): nothing was studied that the tool
 * knows of, so nothing is recorded, not even with an explicit topic. `--if-none ignore` turns it into success.
 */
export function nothingOpen(topicId: string | null, leftAlone: readonly string[] = []): UsageError {
  const on = topicId === null ? "" : ` on ${topicId}`;
  const more = leftAlone.length > 3 ? [`and ${leftAlone.length - 3} more`] : [];
  const left = leftAlone.length === 0 ? "" : ` (${[...leftAlone.slice(0, 3), ...more].join("; ")})`;
  const log = `palee session log${topicId === null ? "" : ` --topic ${topicId}`} --from HH:MM --to HH:MM`;
  return new UsageError(
    `no open session${on} to end; nothing was written${left}. ` +
      `A session studied without the timer is recorded with: ${log}`,
    "nothing_open",
  );
}

/** The Notes of the ended session: the drafts' bodies, then the end's own note, timed as a checkpoint's. */
function endNotes(ctx: SessionContext, absorbed: readonly Draft[], note: string | null | undefined, now: number) {
  // A sync copy identical to its draft carries the same notes: merged once, as Save does.
  const merged = [...new Set(absorbed.map((d) => d.body.trim()).filter((b) => b !== ""))].join("\n\n");
  const last = note ? timedNotes(note, now, ctx) : "";
  // As a checkpoint appends to a draft body (session-note.ts appendNotes): a paragraph break before it.
  return last === "" ? merged : appendNotes(merged, last, merged === "").trim();
}

/** Refusals before anything is read or written: a bad outcome, a bad rating (invalid_rating). */
function validateEndOptions(options: EndOptions): RecallFields {
  const outcome = options.outcome;
  if (outcome !== undefined && outcome !== "completed" && outcome !== "interrupted") {
    throw new UsageError(`outcome must be completed or interrupted (got ${JSON.stringify(outcome)})`);
  }
  return recallFields(options);
}

/** --done marks a carried next action done; with none carried it warns and ends as without it (contract §5). */
async function doneFor(ctx: SessionContext, topicId: string): Promise<{ nextDone: boolean; warnings: string[] }> {
  if (await hasCarriedNextAction(ctx, topicId)) return { nextDone: true, warnings: [] };
  return { nextDone: false, warnings: [`no next action is carried on ${topicId}: nothing to mark done`] };
}

/**
 * An agent's empty session (contract §5 version 4, agents): hot.md is closed first, then its drafts go to the
 * trash, so a crash between the two leaves a 0-minute draft for recovery, never an open pointer to nothing.
 */
async function discardEmpty(
  ctx: SessionContext,
  at: { taken: Taken; topicId: string; scan: Scan; warnings: string[] },
): Promise<DiscardedEnd> {
  const { taken, topicId } = at;
  const views = await writeViewsAfter(ctx, null, closeEnded(taken, topicId), at.scan);
  for (const d of taken.absorbed) await trashDraft(ctx, d);
  const absorbedDrafts = taken.absorbed.map((d) => d.draftId);
  const discardedEmpty = absorbedDrafts.find((id) => id === taken.seenOpen) ?? absorbedDrafts[0] ?? "";
  return { discardedEmpty, topicId, absorbedDrafts, warnings: [...at.warnings, ...taken.leftAlone, ...views] };
}

/**
 * Whether an end records nothing (contract §5 version 4, agents): a session an agent opened, 0 minutes
 * studied, and no notes, summary, next action, recall, rating or done. The learner's own 0-minute end is kept.
 */
function recordsNothing(agent: string | null, minutes: number, notes: string, options: EndOptions): boolean {
  if (agent === null || minutes > 0 || notes.trim() !== "") return false;
  // recall, rating and done are the learning loop's (§4c): read by name, whichever face passes them.
  const given = options as Record<string, unknown>;
  const said = (v: unknown) => v !== undefined && v !== null && v !== false && !(typeof v === "string" && !v.trim());
  return !["summary", "nextAction", "note", "recall", "rating", "done"].some((k) => said(given[k]));
}

/** Writes the confirmed note (step 1); the caller trashes the drafts it absorbed (step 2). */
async function recordEnd(
  ctx: SessionContext,
  at: Taken & {
    topicId: string;
    dating: HotState;
    now: number;
    options: EndOptions;
    recall: RecallFields;
    nextDone: boolean;
    discard: boolean;
  },
): Promise<{ session: ConfirmedSession; warnings: string[] } | { discarded: true }> {
  const { absorbed, topicId, dating, now, options } = at;
  const start = endStart(topicId, absorbed, dating, now, ctx.offsetAt);
  // Tier 3 would be the start: no draft, and no open session (or one whose start is unusable, e.g. in the
  // future). Nothing was studied that the tool knows of.
  if (absorbed.length === 0 && start.tier === 3) throw nothingOpen(topicId, at.leftAlone);
  if (absorbed.length === 0) refuseVanishedTaken(ctx, { openDraft: dating.openDraft, startedMs: start.ms }, options);
  const ending = endingSession(absorbed, at.seenOpen, start.ms);
  const ended = resolveEndAt(options.endAt, ending, now, ctx.graceMs, ctx.offsetAt);
  const agent = absorbed.find((d) => d.agent)?.agent ?? null;
  const notes = endNotes(ctx, absorbed, options.note, now);
  if (at.discard && recordsNothing(agent, ended.durationMinutes, notes, options)) return { discarded: true };
  const session = await writeConfirmed(ctx, start.ms, {
    topicId,
    startedAt: start.text ?? stamp(ctx, start.ms),
    endedAt: stamp(ctx, ended.endedMs),
    durationMinutes: ended.durationMinutes,
    breakMinutes: ended.breakMinutes,
    breaks: formatBreaks(ended.breaks, ctx.offsetAt),
    outcome: options.outcome ?? "completed",
    absorbedDrafts: absorbed.map((d) => d.draftId),
    topicNote: absorbed.find((d) => d.topicNote !== null)?.topicNote ?? null,
    agent,
    summary: options.summary ?? null,
    ...at.recall,
    nextDone: at.nextDone,
    nextAction: options.nextAction ?? null,
    notes,
  });
  return { session, warnings: [...(start.warning ? [start.warning] : []), ...ended.warnings] };
}

/**
 * The session being ended, as resolveEndAt sees it: its last sign of life is the latest among the drafts
 * taken; its pause and breaks are the open session's draft's (else the most recently checkpointed one's).
 */
function endingSession(absorbed: readonly Draft[], seenOpen: string | null, startedMs: number): EndAtSession {
  const checkpoints = absorbed.map((d) => d.lastCheckpointMs).filter((ms): ms is number => ms !== null);
  const lastCheckpointMs = checkpoints.length === 0 ? null : Math.max(...checkpoints);
  const primary =
    absorbed.find((d) => d.draftId === seenOpen) ?? absorbed.find((d) => d.lastCheckpointMs === lastCheckpointMs);
  return { startedMs, lastCheckpointMs, pausedMs: primary?.pausedMs ?? null, breaks: primary?.breaks ?? [] };
}

/**
 * hot.md's pointer after an end (step 3). The open session is over if its draft was absorbed, or if it is this
 * topic's session this end found open and not alive on another device (its draft may be unreadable or gone: it
 * must not stay "open" forever). A pointer that appeared meanwhile (another device's start) is kept. The
 * active topic becomes the newest session's, as a rebuild sets it (ties by session_id, contract §2 ordering):
 * the ended one's, unless another session started in the same second sorts after it.
 */
function closeEnded(taken: Taken, topicId: string): (current: HotState, newest: ConfirmedSession | null) => HotState {
  const finished = new Set(taken.absorbed.map((d) => d.draftId));
  const openElsewhere = new Set(taken.elsewhere.map((d) => d.draftId));
  return (current, newest) => {
    const closes =
      !isOpen(current) ||
      finished.has(current.openDraft) ||
      (current.activeTopic === topicId &&
        current.openDraft === taken.seenOpen &&
        !openElsewhere.has(current.openDraft));
    const activeTopic = newest?.topicId ?? topicId;
    return closes ? { ...current, activeTopic, startedAt: null, openDraft: null, device: null } : current;
  };
}
