/**
 * The crash invariants of contract §6 (2, 1, 8, 3) checked over a whole vault, before and after: every session
 * exactly once, confirmed notes untouched, nothing removed but drafts (and only to the trash), views that
 * agree with the confirmed notes, nothing half-written. Works on any store's files (MemoryStore or a folder
 * on disk read back into a map), independently of the core's own scan: it parses the files itself.
 *
 * `invariantViolations` returns the problems as sentences (empty when all hold), so a failing test names
 * every broken rule at once: `expect(invariantViolations(before, after)).toEqual([])`.
 */
import { bodyAfterFrontmatter, classifyRecord } from "../../src/core/records/frontmatter";
import { HOT_WORD_LIMIT, countWords } from "../../src/core/records/hot-memory";
import type { MemoryStore } from "../support/memory-store";

/** A vault as files: every file outside the trash, what went to the trash, and every draft ever created. */
export interface VaultState {
  files: ReadonlyMap<string, string>;
  /** Vault paths moved to the trash, in order. */
  trashed: readonly string[];
  /** Draft IDs created at any point of the run (a draft created and then lost must be noticed). */
  createdDrafts: ReadonlySet<string>;
}

export interface InvariantOptions {
  /** The session folder (default "palee"). */
  folder?: string;
  /**
   * "settled" (default): after start-up recovery and a rebuild — every rule, exactly once.
   * "crashed": right after a crash, before anything ran again — a draft may still be on disk beside the
   * confirmed note that absorbed it (reconcile finishes that), and the views may lag behind.
   */
  phase?: "settled" | "crashed";
  /** Draft IDs the learner discarded: they may be gone (never saved twice, though). */
  discarded?: Iterable<string>;
  /** New confirmed notes that absorb no draft (an explicit end with no session recorded): at most this many. */
  newUnabsorbedAllowed?: number;
  /** Paths that must still hold exactly their content from before (e.g. another device's draft). */
  untouched?: Iterable<string>;
  /** New files that are neither session files nor views and are acceptable (e.g. a killed store's temp file). */
  allowExtra?: (path: string) => boolean;
}

/** A MemoryStore as a VaultState (its write log tells which drafts were ever created). */
export function vaultOf(store: MemoryStore): VaultState {
  const created = new Set<string>();
  for (const write of store.writes) {
    const match = /^create .*\/(DRAFT-S-[^/]+)\.md$/.exec(write);
    if (match?.[1]) created.add(match[1]);
  }
  return { files: new Map(store.files), trashed: store.trashed.map((t) => t.path), createdDrafts: created };
}

interface Confirmed {
  path: string;
  sessionId: string;
  startedMs: number;
  absorbed: string[];
  topicId: unknown;
}

const DRAFT_NAME = /^DRAFT-S-[0-9a-f]{8}\.md$/;
const CONFIRMED_NAME = /^S-\d{8}T\d{6}-[0-9a-f]{4}\.md$/;

function idOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}

export function invariantViolations(
  before: ReadonlyMap<string, string> | Record<string, string>,
  after: VaultState,
  options: InvariantOptions = {},
): string[] {
  const was: ReadonlyMap<string, string> = before instanceof Map ? before : new Map(Object.entries(before));
  const folder = options.folder ?? "palee";
  const sessions = `${folder}/sessions/`;
  const hotPath = `${folder}/hot.md`;
  const indexPath = `${folder}/index.md`;
  const settled = (options.phase ?? "settled") === "settled";
  const discarded = new Set(options.discarded ?? []);
  const problems: string[] = [];
  const inSessions = (p: string): boolean => p.startsWith(sessions) && !p.slice(sessions.length).includes("/");
  // Invariant 10: hot.md text the tool did not write, kept in a new file beside hot.md before it is replaced.
  const oldHot = was.get(hotPath);
  const keptCopy = (p: string, text: string): boolean =>
    p.startsWith(`${folder}/hot-kept-`) &&
    p.endsWith(".md") &&
    !p.slice(folder.length + 1).includes("/") &&
    text === oldHot;

  // (e) Nothing half-written, no stray files: every session file is named as one and reads ok.
  const confirmed: Confirmed[] = [];
  const drafts = new Map<string, Record<string, unknown>>();
  for (const [path, text] of after.files) {
    if (!inSessions(path)) {
      if (
        !was.has(path) &&
        path !== hotPath &&
        path !== indexPath &&
        !keptCopy(path, text) &&
        !options.allowExtra?.(path)
      )
        problems.push(`stray file ${path}`);
      continue;
    }
    const name = path.slice(sessions.length);
    const isDraft = DRAFT_NAME.test(name);
    if (!isDraft && !CONFIRMED_NAME.test(name)) {
      if (!was.has(path) && !options.allowExtra?.(path)) problems.push(`stray file ${path}`);
      continue;
    }
    const read = classifyRecord(text);
    if (read.state !== "ok") {
      problems.push(`${path} reads as ${read.state}`);
      continue;
    }
    const f = read.fields;
    if (f.session_id !== idOf(path)) problems.push(`${path} has session_id ${String(f.session_id)}`);
    if (isDraft) {
      if (f.status !== "draft") problems.push(`${path} has status ${String(f.status)}`);
      drafts.set(idOf(path), f);
      continue;
    }
    const startedMs = typeof f.started_at === "string" ? Date.parse(f.started_at) : Number.NaN;
    const absorbed = Array.isArray(f.absorbed_drafts)
      ? f.absorbed_drafts.filter((x): x is string => typeof x === "string")
      : null;
    if (
      f.status !== "completed" ||
      Number.isNaN(startedMs) ||
      absorbed === null ||
      typeof f.duration_minutes !== "number"
    ) {
      problems.push(`${path} is not a complete confirmed session`);
      continue;
    }
    confirmed.push({ path, sessionId: idOf(path), startedMs, absorbed, topicId: f.topic_id });
  }

  // (b) No confirmed note that existed before was changed or removed.
  for (const [path, text] of was) {
    if (!(inSessions(path) && CONFIRMED_NAME.test(path.slice(sessions.length)))) continue;
    const now = after.files.get(path);
    if (now === undefined) problems.push(`confirmed note ${path} was removed`);
    else if (now !== text) problems.push(`confirmed note ${path} was changed`);
  }

  // (c) Nothing outside sessions/ removed (or, but for the views, changed); only drafts went to the trash,
  // and a draft that left sessions/ went to the trash.
  for (const [path, text] of was) {
    const now = after.files.get(path);
    if (!inSessions(path)) {
      if (now === undefined) problems.push(`${path} was removed`);
      else if (now !== text && path !== hotPath && path !== indexPath) problems.push(`${path} was changed`);
    } else if (now === undefined && DRAFT_NAME.test(path.slice(sessions.length)) && !after.trashed.includes(path)) {
      problems.push(`draft ${path} vanished without going to the trash`);
    }
  }
  for (const path of after.trashed) {
    if (!(inSessions(path) && DRAFT_NAME.test(path.slice(sessions.length)))) problems.push(`${path} went to the trash`);
  }
  const oldRead = classifyRecord(oldHot ?? null);
  const handWritten = oldHot !== undefined && bodyAfterFrontmatter(oldHot).trim() !== "" && oldRead.state !== "ok";
  const newHot = after.files.get(hotPath);
  if (handWritten && newHot !== oldHot) {
    const carried = oldRead.state === "no-frontmatter" && newHot !== undefined && newHot.endsWith(oldRead.body);
    const copied = [...after.files].some(([p, text]) => !was.has(p) && keptCopy(p, text));
    if (!carried && !copied) problems.push(`${hotPath} held hand-written text that was replaced without a copy`);
  }
  for (const path of options.untouched ?? []) {
    if (after.files.get(path) !== was.get(path)) problems.push(`${path} was touched`);
  }

  // (a) Every session exactly once: each draft ever seen is still a draft or absorbed by one confirmed note.
  const absorbers = new Map<string, string[]>();
  for (const s of confirmed)
    for (const id of s.absorbed) absorbers.set(id, [...(absorbers.get(id) ?? []), s.sessionId]);
  const everyDraft = new Set<string>([...after.createdDrafts, ...absorbers.keys(), ...drafts.keys()]);
  for (const path of was.keys())
    if (inSessions(path) && DRAFT_NAME.test(path.slice(sessions.length))) everyDraft.add(idOf(path));
  for (const id of [...everyDraft].sort()) {
    const by = absorbers.get(id) ?? [];
    const asDraft = drafts.has(id) ? 1 : 0;
    if (by.length > 1) problems.push(`${id} is saved twice (${by.join(", ")})`);
    const total = asDraft + by.length;
    if (total === 0 && !discarded.has(id)) problems.push(`${id} is lost (neither a draft nor absorbed)`);
    if (settled && total > 1 && by.length <= 1) problems.push(`${id} exists twice (a draft and in ${by.join(", ")})`);
  }
  // Checkpoints are merged, never thrown away: the notes a draft held before are in the note that absorbed it.
  for (const [path, text] of was) {
    if (!inSessions(path) || !DRAFT_NAME.test(path.slice(sessions.length))) continue;
    const read = classifyRecord(text);
    const notes = read.state === "ok" ? read.body.trim() : "";
    const by = absorbers.get(idOf(path)) ?? [];
    for (const sessionId of by) {
      const note = after.files.get(`${sessions}${sessionId}.md`) ?? "";
      if (notes !== "" && !note.includes(notes))
        problems.push(`the notes of ${idOf(path)} are missing from ${sessionId}`);
    }
  }
  const newUnabsorbed = confirmed.filter((s) => !was.has(s.path) && s.absorbed.length === 0);
  if (newUnabsorbed.length > (options.newUnabsorbedAllowed ?? 0)) {
    problems.push(
      `${newUnabsorbed.length} new confirmed note(s) absorb no draft: ` +
        `${newUnabsorbed.map((s) => s.sessionId).join(", ")}`,
    );
  }
  const ids = confirmed.map((s) => s.sessionId);
  if (new Set(ids).size !== ids.length) problems.push(`a session_id appears twice among ${ids.join(", ")}`);

  if (!settled) return problems;

  // (d) The views agree with the confirmed notes.
  const newestFirst = [...confirmed].sort(
    (a, b) => b.startedMs - a.startedMs || (a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0),
  );
  const index = classifyRecord(after.files.get(indexPath) ?? null);
  if (index.state !== "ok" || index.fields.type !== "session_index") {
    problems.push(`${indexPath} reads as ${index.state}`);
  } else {
    const total = /^Total sessions: (\d+)$/m.exec(index.body)?.[1];
    if (total !== String(confirmed.length))
      problems.push(`${indexPath} says Total sessions: ${total ?? "?"}, there are ${confirmed.length}`);
    const listed = [...index.body.matchAll(/^- \[\[(S-[^\]]+)\]\]/gm)].map((m) => m[1]);
    const expected = newestFirst.map((s) => s.sessionId);
    if (listed.join(" ") !== expected.join(" "))
      problems.push(`${indexPath} lists [${listed.join(", ")}], expected [${expected.join(", ")}]`);
  }
  const hot = classifyRecord(after.files.get(hotPath) ?? null);
  if (hot.state !== "ok") {
    problems.push(`${hotPath} reads as ${hot.state}`);
  } else {
    const f = hot.fields;
    const newest = newestFirst[0]?.sessionId ?? null;
    if ((f.last_session ?? null) !== newest)
      problems.push(`${hotPath} last_session is ${String(f.last_session)}, newest is ${String(newest)}`);
    // The body is the memory of the active topic (none active: the newest session's), contract §2 hot.md.
    const newestTopic = newestFirst[0]?.topicId;
    const topic =
      typeof f.active_topic === "string" ? f.active_topic : typeof newestTopic === "string" ? newestTopic : null;
    const ofTopic = newestFirst.find((s) => s.topicId === topic)?.sessionId ?? null;
    if (ofTopic !== null && !hot.body.includes(`[[${ofTopic}]]`))
      problems.push(`${hotPath} body does not cite ${ofTopic}, the newest session of ${topic ?? "none"}`);
    if (countWords(hot.body) > HOT_WORD_LIMIT) problems.push(`${hotPath} body has more than ${HOT_WORD_LIMIT} words`);
    const open = f.open_draft ?? null;
    if (open !== null && typeof open !== "string") {
      problems.push(`${hotPath} open_draft is not a draft ID`);
    } else if (open === null) {
      if ((f.started_at ?? null) !== null || (f.device ?? null) !== null)
        problems.push(`${hotPath} has no open draft but a started_at or device`);
    } else {
      const draft = drafts.get(open);
      if (!draft) problems.push(`${hotPath} points at ${open}, which is not a usable draft`);
      else {
        if (draft.topic_id !== f.active_topic)
          problems.push(
            `${hotPath} active_topic ${String(f.active_topic)} but its open draft is on ${String(draft.topic_id)}`,
          );
        if (draft.started_at !== f.started_at)
          problems.push(
            `${hotPath} started_at ${String(f.started_at)} but its open draft started ${String(draft.started_at)}`,
          );
        if (absorbers.has(open)) problems.push(`${hotPath} points at ${open}, already saved`);
      }
    }
  }
  return problems;
}
