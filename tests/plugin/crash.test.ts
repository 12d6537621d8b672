/**
 * A crash at every write of every plugin operation (contract §6.2, plugin half of the crash-injection tests; the
 * core's is tests/core/crash-points.test.ts). For each operation the learner can perform, the writes of an
 * uninterrupted run are counted; then, for every k from 0 to that count, the vault refuses every write after
 * the first k (support/crashing-vault.ts) and the plugin instance is abandoned, as if the app had died. A
 * fresh instance then opens the same vault (its start-up recovery, the recovery modal answered as a learner
 * would), the learner rebuilds the views, and the vault must hold every session exactly once, nothing
 * removed but drafts and only to the trash, no confirmed note or user note changed, views that agree with
 * the confirmed notes, and nothing half-written; the crash must have been announced by a notice at once.
 *
 * Each crash point is followed by three ways of coming back: an hour later, the metadata cache caught up,
 * every recovery row saved; a minute later (this device's session resumes silently), the cache still behind
 * the crashed instance's writes, every row ignored; and an hour later with the cache still behind, every row
 * saved.
 */
import { classifyRecord } from "../../src/core/records/frontmatter";
import type { ConfirmedSession, Draft } from "../../src/core/records/records";
import { compareNewestFirst, interpretConfirmed, interpretDraft } from "../../src/core/records/records";
import { ConfirmModal } from "../../src/plugin/ui/confirm-modal";
import { confirmedText, draftText } from "../support/builders";
import type { CrashingVault } from "./support/crashing-vault";
import { CRASH_MESSAGE, crashAfterWrites } from "./support/crashing-vault";
import type { ObsidianHarness } from "./support/obsidian-harness";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  MINUTE,
  T0,
  buttonByText,
  clearNotices,
  click,
  harness,
  installPluginTestEnvironment,
  loadPlugin,
  modals,
  noticeLog,
  pickTopic,
  recoverAction,
  recoveryRows,
  settle,
  submitEnd,
} from "./support/plugin-harness";
import { HOT, INDEX, S, idOf, isTopic, startOn, statusText, textAt } from "./support/session-files";

installPluginTestEnvironment();

// ---- the vault before the operation ---------------------------------------------------------------------

const DEVICE = "laptop";
const PAST = "S-20260813T100000-abcd";
const OTHER_DRAFT = "DRAFT-S-0000beef";
const TOPIC_NOTE = "notes/Rust ownership.md";
const TOPIC_NOTE_TEXT = "---\npalee_id: T-rust-ownership\n---\nMoves, borrows and lifetimes.\n";
const PLAIN_NOTE = "notes/Graph theory.md";
const PLAIN_NOTE_BODY = "Vertices and edges.\n\n## Trees\n\nA tree is a connected acyclic graph.\n";
const PLAIN_NOTE_TEXT = `---\ntags:\n  - math\n---\n${PLAIN_NOTE_BODY}`;
const NOTES = "Ownership moves on assignment.\n";

/** A vault with one past session, the learner's own notes, and no views yet (the plugin builds them). */
const HISTORY: Record<string, string> = {
  [TOPIC_NOTE]: TOPIC_NOTE_TEXT,
  [PLAIN_NOTE]: PLAIN_NOTE_TEXT,
  [S(PAST)]: confirmedText({ session_id: PAST }, { summary: "Moves and copies", next: "Borrowing" }),
};

/** A session left on another device yesterday: always offered for recovery, never touched unasked. */
const ORPHAN = draftText(
  {
    session_id: OTHER_DRAFT,
    topic_id: "T-graphs",
    started_at: "2026-08-13T09:00:00+00:00",
    last_checkpoint_at: "2026-08-13T09:20:00+00:00",
    device: "old-laptop",
  },
  "BFS visits by layers.\n",
);

const LEGACY_CONFIRMED = "S-20260812T090000-0123";
const LEGACY_DRAFT = "DRAFT-S-0000cafe";
/** A `.palee/` folder of the seed tool: one session already imported, one not, a draft, and the views. */
const LEGACY: Record<string, string> = {
  ".palee/hot.md": "---\npalee_schema: 1\nmemory_id: H-active\n---\nOld working memory\n",
  ".palee/index.md": "---\npalee_schema: 1\ntype: session_index\n---\n# PALEE session index\n",
  [`.palee/sessions/${PAST}.md`]: HISTORY[S(PAST)],
  [`.palee/sessions/${LEGACY_CONFIRMED}.md`]: confirmedText(
    {
      session_id: LEGACY_CONFIRMED,
      topic_id: "T-graphs",
      started_at: "2026-08-12T09:00:00+00:00",
      ended_at: "2026-08-12T09:30:00+00:00",
      duration_minutes: 30,
    },
    { summary: "BFS" },
  ),
  [`.palee/sessions/${LEGACY_DRAFT}.md`]: draftText(
    { session_id: LEGACY_DRAFT, topic_id: "T-graphs", device: "old-laptop" },
    "Dijkstra next.\n",
  ),
};

/** The views as the plugin builds them, so operations start from a vault the plugin has already used. */
async function withViews(files: Record<string, string>): Promise<ObsidianHarness> {
  const h = harness({ files });
  const p = await loadPlugin(h, { device: DEVICE });
  await p.run("rebuild-views");
  p.unload();
  h.catchUpCache();
  return h;
}

async function openNote(h: ObsidianHarness, path: string): Promise<void> {
  const file = h.app.vault.getFileByPath(path);
  if (!file) throw new Error(`${path} does not exist`);
  await h.app.workspace.getLeaf(false).openFile(file);
}

function confirmModal(): ConfirmModal {
  const found = (modals() as readonly unknown[]).filter((m): m is ConfirmModal => m instanceof ConfirmModal);
  if (found.length !== 1) throw new Error(`expected one confirm modal, found ${found.length}`);
  return found[0];
}

/** A session started on this device at T0 from the ribbon, with the learner's notes in its draft. */
async function running(h: ObsidianHarness): Promise<{ p: LoadedPlugin; draftId: string }> {
  const p = await loadPlugin(h, { device: DEVICE });
  const draftId = await startOn(p);
  h.write(S(draftId), textAt(h, S(draftId)) + NOTES);
  h.catchUpCache();
  return { p, draftId };
}

// ---- operations ---------------------------------------------------------------------------------------

/** The notice of a write that failed for no reason the plugin knows (describeFailure); `what` is a pattern. */
/** A write of the log that created a confirmed session note. */
const writesNote = (write: string): boolean => /\/sessions\/S-[^/]+\.md$/.test(write);
/** The notice of a failure after the session note was written: it says the session is saved first. */
const savedThen = (): RegExp =>
  new RegExp(`^Session saved as S-[0-9T]+-[0-9a-f]{4}, but updating the views failed \\(${CRASH_MESSAGE}\\)\\. `);
const unexpected = (what: string): RegExp => new RegExp(`^Could not ${what}: unexpected error \\(${CRASH_MESSAGE}\\)$`);

interface Prepared {
  h: ObsidianHarness;
  /** The instance the operation runs in; null when the operation itself opens the vault. */
  p: LoadedPlugin | null;
  /** The draft the operation is about, if any. */
  draftId?: string;
}

interface Operation {
  name: string;
  /** The vault just before the operation, built without the gate (its writes are not counted). */
  prepare(): Promise<Prepared>;
  /** What the learner does; returns the instance that ran it (the one abandoned after a crash). */
  act(ready: Prepared): Promise<LoadedPlugin>;
  /** The notice of an uninterrupted run, when it gives one. */
  success?: RegExp;
  /** The notice of a crash at write k: what failed, in the learner's words. */
  crashNotice: (k: number, before: readonly string[]) => RegExp;
  /** Drafts the operation may remove for good (a discard). */
  mayRemove?: (ready: Prepared) => string[];
  /** What the learner does again after coming back (finish the end, run the import again). */
  retry?: (p: LoadedPlugin) => Promise<void>;
  /** Sessions that must exist after the retry (the import's). */
  imported?: string[];
}

/** The interrupted session of this device, an hour later, and another device's orphan draft. */
async function interrupted(): Promise<Prepared> {
  const h = await withViews(HISTORY);
  const { p, draftId } = await running(h);
  jest.setSystemTime(T0 + 10 * MINUTE);
  await p.run("save-checkpoint");
  p.unload();
  h.write(S(OTHER_DRAFT), ORPHAN); // synced meanwhile
  jest.setSystemTime(T0 + 70 * MINUTE);
  h.catchUpCache();
  return { h, p: null, draftId };
}

function recovery(action: "resume" | "save" | "discard" | "ignore"): Operation {
  return {
    name: `${action} in the recovery modal on vault open`,
    prepare: interrupted,
    async act(ready) {
      const p = await loadPlugin(ready.h, { device: DEVICE });
      await recoverAction(ready.draftId ?? "", action);
      return p;
    },
    crashNotice: (_k, before) =>
      action === "save" && before.some(writesNote) ? savedThen() : unexpected(`${action} DRAFT-S-[0-9a-f]{8}`),
    mayRemove: (ready) => (action === "discard" ? [ready.draftId ?? ""] : []),
  };
}

/**
 * The next vault open after `op` was cut short after `writes` writes: its start-up recovery finishes the job
 * (reconcile trashes a saved draft, closes a finished or vanished open session), and is cut in turn.
 */
function afterCut(op: Operation, writes: number, what: string): Operation {
  return {
    name: `vault open after ${what}`,
    async prepare() {
      const ready = await op.prepare();
      const gate = crashAfterWrites(ready.h, writes);
      const p = await op.act(ready);
      await settle();
      p.unload();
      gate.restore();
      if (gate.attempts <= writes) throw new Error(`${op.name} was not cut at write ${writes}`);
      jest.setSystemTime(Date.now() + 60 * MINUTE);
      ready.h.catchUpCache();
      return { h: ready.h, p: null, draftId: ready.draftId };
    },
    act: (ready) => loadPlugin(ready.h, { device: DEVICE }),
    crashNotice: () => unexpected("check for interrupted sessions"),
  };
}

const startWithHistory: Operation = {
  name: "start with a history (command and topic picker)",
  async prepare() {
    const h = await withViews(HISTORY);
    return { h, p: await loadPlugin(h, { device: DEVICE }) };
  },
  async act({ p }) {
    if (!p) throw new Error("no plugin");
    await p.run("start-session");
    await pickTopic("T-lifetimes");
    return p;
  },
  success: /^Session on T-lifetimes started\.$/,
  crashNotice: () => unexpected("start the session"),
};

const end: Operation = {
  name: "end (end modal)",
  async prepare() {
    const h = await withViews(HISTORY);
    const { p, draftId } = await running(h);
    // Studying: the ticks fire (a jump of the clock alone is a sleep, recorded as time away).
    jest.advanceTimersByTime(T0 + 25 * MINUTE - Date.now());
    await settle();
    return { h, p, draftId };
  },
  async act({ p }) {
    if (!p) throw new Error("no plugin");
    await p.run("end-session");
    await submitEnd("Borrowing rules", "Lifetimes");
    return p;
  },
  success: /^Session on Rust ownership saved \(25 min\)\.$/,
  // A crash after the session note was written says the session is saved (afterSaveError), never only "could not".
  crashNotice: (_k, before) => (before.some(writesNote) ? savedThen() : unexpected("end the session")),
  // Back in the app, the learner ends the session if it is still running (the crash came before the save).
  async retry(p) {
    if (!p.available("end-session")) return;
    await p.run("end-session");
    await submitEnd("Borrowing rules", "Lifetimes");
  },
};

const operations: Operation[] = [
  {
    name: "start on a new vault (command and topic picker)",
    async prepare() {
      const h = harness({ files: { [TOPIC_NOTE]: TOPIC_NOTE_TEXT } });
      return { h, p: await loadPlugin(h, { device: DEVICE }) };
    },
    async act({ p }) {
      if (!p) throw new Error("no plugin");
      await p.run("start-session");
      await pickTopic("T-rust-ownership", isTopic("T-rust-ownership"));
      return p;
    },
    success: /^Session on Rust ownership started\.$/,
    crashNotice: () => unexpected("start the session"),
  },
  startWithHistory,
  {
    name: "save checkpoint (command)",
    async prepare() {
      const h = await withViews(HISTORY);
      const { p, draftId } = await running(h);
      jest.setSystemTime(T0 + 3 * MINUTE);
      return { h, p, draftId };
    },
    async act({ p }) {
      if (!p) throw new Error("no plugin");
      await p.run("save-checkpoint");
      return p;
    },
    success: /^Checkpoint saved \(Rust ownership · 0:03\)\.$/,
    crashNotice: () => unexpected("save the checkpoint"),
  },
  {
    name: "the automatic checkpoint",
    async prepare() {
      const h = await withViews(HISTORY);
      return { h, ...(await running(h)) };
    },
    async act({ p }) {
      if (!p) throw new Error("no plugin");
      // The 1-second ticks up to the 5-minute interval: the last one finds the checkpoint due.
      jest.advanceTimersByTime(5 * MINUTE);
      await settle();
      return p;
    },
    crashNotice: () => unexpected("save the automatic checkpoint"),
  },
  end,
  recovery("resume"),
  recovery("save"),
  recovery("discard"),
  recovery("ignore"),
  afterCut(end, 1, "an end cut after its confirmed note"),
  afterCut(end, 3, "an end cut before hot.md"),
  afterCut(startWithHistory, 1, "a start cut after hot.md"),
  {
    name: "rebuild views (command)",
    async prepare() {
      const h = await withViews(HISTORY);
      // Sessions synced from another device after the views were built: the views are out of date.
      h.write(
        S("S-20260814T080000-aaaa"),
        confirmedText(
          {
            session_id: "S-20260814T080000-aaaa",
            started_at: "2026-08-14T08:00:00+00:00",
            ended_at: "2026-08-14T08:30:00+00:00",
            duration_minutes: 30,
          },
          { summary: "Slices" },
        ),
      );
      h.write(
        S("S-20260814T090000-bbbb"),
        confirmedText({
          session_id: "S-20260814T090000-bbbb",
          topic_id: "T-graphs",
          started_at: "2026-08-14T09:00:00+00:00",
          ended_at: "2026-08-14T09:10:00+00:00",
          duration_minutes: 10,
        }),
      );
      h.catchUpCache();
      return { h, p: await loadPlugin(h, { device: DEVICE }) };
    },
    async act({ p }) {
      if (!p) throw new Error("no plugin");
      await p.run("rebuild-views");
      return p;
    },
    success: /^Rebuilt working memory and index from 3 sessions\.$/,
    crashNotice: () => unexpected("rebuild working memory and index"),
  },
  {
    name: "import a .palee folder (command)",
    async prepare() {
      const h = await withViews(HISTORY);
      for (const [path, text] of Object.entries(LEGACY)) h.adapter.writeSync__(path, text);
      return { h, p: await loadPlugin(h, { device: DEVICE }) };
    },
    async act({ p }) {
      if (!p) throw new Error("no plugin");
      await p.run("import-palee-folder");
      return p;
    },
    success:
      /^Imported 2 files into palee\/sessions\. Skipped 3: 1 already imported; 2 derived views, rebuilt instead\.$/,
    crashNotice: () => unexpected("import the .palee folder"),
    // The learner runs the import again: what the crash left out is copied, nothing twice.
    async retry(p) {
      await p.run("import-palee-folder");
      // It offers the copied draft for recovery: the learner leaves it for later.
      if (modals().length > 0) await answerRecovery("ignore");
    },
    imported: [PAST, LEGACY_CONFIRMED, LEGACY_DRAFT],
  },
  {
    name: "use the current note as a topic (topic picker, confirmation)",
    async prepare() {
      const h = await withViews(HISTORY);
      const p = await loadPlugin(h, { device: DEVICE });
      await openNote(h, PLAIN_NOTE);
      return { h, p };
    },
    async act({ p }) {
      if (!p) throw new Error("no plugin");
      await p.ribbon();
      await pickTopic("", (c) => c.kind === "use-current-note");
      click(buttonByText(confirmModal().contentEl, "Use as topic"));
      await settle();
      return p;
    },
    success: /^Session on Graph theory started\.$/,
    // The note's properties were fine: the write failed, and the notice must not send the learner to fix them.
    crashNotice: (k) => unexpected(k === 0 ? 'add palee_id to "Graph theory"' : "start the session"),
  },
];

// ---- coming back after the crash ---------------------------------------------------------------------

/** Presses `action` on every row of the recovery modal, as a learner going down the list would. */
async function answerRecovery(action: "save" | "ignore"): Promise<void> {
  for (const { draftId } of recoveryRows()) {
    if (modals().length === 0) break; // every row answered: the modal closed itself
    await recoverAction(draftId, action);
  }
  while (modals().length > 0) modals()[modals().length - 1].close();
  await settle();
}

interface Return {
  label: string;
  /** Minutes between the crash and the next start of the app. */
  after: number;
  /** Whether the metadata cache has indexed the crashed instance's writes by then. */
  cacheCaughtUp: boolean;
  answer: "save" | "ignore";
}

const LATER: Return = { label: "an hour later, cache caught up, Save", after: 60, cacheCaughtUp: true, answer: "save" };
const AT_ONCE: Return = {
  label: "a minute later, cache lagging, Ignore",
  after: 1,
  cacheCaughtUp: false,
  answer: "ignore",
};
const LATER_LAGGING: Return = {
  label: "an hour later, cache lagging, Save",
  after: 60,
  cacheCaughtUp: false,
  answer: "save",
};

// ---- what must hold ---------------------------------------------------------------------------------------

const SESSION_FILE = /^palee\/sessions\/(?:S-\d{8}T\d{6}-[0-9a-f]{4}|DRAFT-S-[0-9a-f]{8})\.md$/;
const DRAFT_FILE = /^palee\/sessions\/DRAFT-S-[0-9a-f]{8}\.md$/;
/** Stack trace lines ("    at f (file.js:1:2)") or an error class printed as "TypeError: …". */
const STACK_TRACE = /^\s*at .+:\d+(?::\d+)?\)?$|\b[A-Z]\w*Error: /m;

const offsetUtc = (): number => 0;

function fmText(text: string): { fields: Record<string, unknown>; body: string } {
  const read = classifyRecord(text);
  if (read.state === "ok" || read.state === "schema-invalid") return { fields: read.fields, body: read.body };
  if (read.state === "no-frontmatter") return { fields: {}, body: read.body };
  throw new Error(`not readable: ${read.state}`);
}

/**
 * The vault after the fresh instance's start-up, recovery and rebuild, against the vault just before the
 * operation: `before` (all files) and the sessions the operation started from.
 */
function checkVault(
  h: ObsidianHarness,
  before: Record<string, string>,
  op: Operation,
  ready: Prepared,
  where: string,
): void {
  const files = h.files();
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}\nfiles: ${Object.keys(files).join(", ")}`);
  };

  // Removal: only drafts of the session folder, only to the trash.
  if (h.deleted.length > 0) fail(`deleted for good: ${h.deleted.join(", ")}`);
  for (const t of h.trashed) {
    if (!DRAFT_FILE.test(t.path) || t.via !== "fileManager.trashFile") fail(`trashed ${t.path} via ${t.via}`);
  }

  // Nothing outside the session folder removed or changed; the user's topic note keeps its text.
  for (const [path, text] of Object.entries(before)) {
    if (path.startsWith("palee/")) continue;
    const now = files[path];
    if (now === undefined) fail(`${path} was removed`);
    if (now === text) continue;
    // "Use the current note as a topic" may add palee_id (only that) to the note's properties.
    const was = fmText(text);
    const is = fmText(now ?? "");
    const { palee_id: added, ...rest } = is.fields;
    if (
      path !== PLAIN_NOTE ||
      is.body !== was.body ||
      typeof added !== "string" ||
      JSON.stringify(rest) !== JSON.stringify(was.fields)
    ) {
      fail(`${path} changed:\n${now ?? ""}`);
    }
  }

  // Confirmed notes that existed are unchanged.
  for (const [path, text] of Object.entries(before)) {
    if (/^palee\/sessions\/S-/.test(path) && files[path] !== text) fail(`confirmed ${path} changed or removed`);
  }

  // Every session file whole and readable; hot.md and index.md too.
  const confirmed: ConfirmedSession[] = [];
  const drafts: Draft[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (!path.startsWith("palee/")) continue;
    if (path === HOT || path === INDEX) {
      if (classifyRecord(text).state !== "ok") fail(`${path} is ${classifyRecord(text).state}`);
      continue;
    }
    if (!SESSION_FILE.test(path)) fail(`unexpected file ${path}`);
    const read = classifyRecord(text);
    const result = idOf(path).startsWith("S-")
      ? interpretConfirmed(path, read, offsetUtc)
      : interpretDraft(path, read, offsetUtc);
    if (!("record" in result)) return fail(`${path} is not a whole session file (${result.reason})`);
    if ("absorbedDrafts" in result.record) confirmed.push(result.record);
    else drafts.push(result.record);
  }

  // Every session exactly once: as its draft, or absorbed by one confirmed note.
  const seen = new Map<string, number>();
  for (const d of drafts) seen.set(d.draftId, (seen.get(d.draftId) ?? 0) + 1);
  for (const s of confirmed) for (const id of s.absorbedDrafts) seen.set(id, (seen.get(id) ?? 0) + 1);
  for (const [id, count] of seen) if (count !== 1) fail(`${id} exists ${count} times`);
  const removable = new Set(op.mayRemove?.(ready) ?? []);
  const draftsBefore = Object.keys(before)
    .filter((p) => DRAFT_FILE.test(p))
    .map(idOf);
  for (const id of draftsBefore) {
    if (!seen.has(id) && !removable.has(id)) fail(`session ${id} was lost`);
  }
  // Its notes go with it (into the confirmed note's Notes when saved).
  for (const id of draftsBefore) {
    const notes = fmText(before[S(id)]).body.trim();
    const holder = drafts.find((d) => d.draftId === id) ?? confirmed.find((s) => s.absorbedDrafts.includes(id));
    if (holder && notes !== "" && !holder.body.includes(notes)) fail(`the notes of ${id} were lost`);
  }
  // A new confirmed note records a session that was a draft (the import copies its own).
  const known = new Set([...Object.keys(before).map(idOf), ...(op.imported ?? [])]);
  for (const s of confirmed) {
    if (!known.has(s.sessionId) && s.absorbedDrafts.length === 0) fail(`${s.sessionId} records no draft`);
  }
  for (const id of op.imported ?? []) {
    if (!confirmed.some((s) => s.sessionId === id) && !seen.has(id)) fail(`imported session ${id} is missing`);
  }

  // The views agree with the confirmed notes.
  const newestFirst = [...confirmed].sort(compareNewestFirst);
  const index = textAt(h, INDEX);
  if (!index.includes(`Total sessions: ${confirmed.length}\n`))
    fail(`index.md does not count ${confirmed.length}:\n${index}`);
  const listed = [...index.matchAll(/^- \[\[([^\]]+)\]\]/gm)].map((m) => m[1]);
  if (JSON.stringify(listed) !== JSON.stringify(newestFirst.map((s) => s.sessionId)))
    fail(`index.md lists ${listed.join(", ")}`);
  const hot = fmText(textAt(h, HOT));
  const newest = newestFirst[0]?.sessionId ?? null;
  if (hot.fields.last_session !== newest)
    fail(`hot.md names ${String(hot.fields.last_session)} as the last session, not ${String(newest)}`);
  // The body is the memory of the active topic (none: the newest session's), contract §2 hot.md version 3.
  const topic = typeof hot.fields.active_topic === "string" ? hot.fields.active_topic : newestFirst[0]?.topicId;
  const ofTopic = newestFirst.find((s) => s.topicId === topic)?.sessionId ?? null;
  if (ofTopic && !hot.body.includes(`Source: [[${ofTopic}]]`)) fail(`hot.md's body is not from ${ofTopic}`);
  if (!ofTopic && topic && !hot.body.startsWith("No sessions on ")) fail(`hot.md's body is not ${topic}'s`);
  const openDraft = hot.fields.open_draft;
  if (openDraft !== null && !drafts.some((d) => d.draftId === openDraft))
    fail(`hot.md's open session ${JSON.stringify(openDraft)} has no draft`);
}

/** Notices a learner would read without understanding them. */
function checkNotices(where: string): void {
  for (const notice of noticeLog()) {
    if (STACK_TRACE.test(notice)) throw new Error(`${where}: a notice shows a stack trace: ${notice}`);
  }
}

/**
 * The instance that saw the write fail still answers (not stuck in an end or a checkpoint): its status bar
 * shows idle, a topic with its timer, or an interrupted session, and a ribbon click answers with a modal or a
 * notice. Modals left open are closed first, as the learner would.
 */
async function checkUsable(p: LoadedPlugin, where: string): Promise<void> {
  while (modals().length > 0) modals()[modals().length - 1].close();
  await settle();
  const status = statusText(p);
  // The topic is its ID, or its note's name (version 4, topics by name).
  if (!/^(?:Start session(?: · \d+ due)?|(?:T-[\w.-]+|[\w ]+) (?:\d+:\d{2}:\d{2}|\(interrupted\)))$/.test(status))
    throw new Error(`${where}: status bar shows "${status}"`);
  const notices = noticeLog().length;
  await p.ribbon();
  if (modals().length === 0 && noticeLog().length === notices)
    throw new Error(`${where}: the ribbon did nothing (status "${status}")`);
  while (modals().length > 0) modals()[modals().length - 1].close();
  await settle();
}

// ---- the runs ------------------------------------------------------------------------------------------

interface Run {
  gate: CrashingVault;
  /** Notices from the moment of the crash (all of them when nothing crashed). */
  noticesAfterCrash: string[];
}

async function runOnce(op: Operation, allowed: number, back: Return | null): Promise<Run> {
  jest.setSystemTime(T0);
  clearNotices();
  const ready = await op.prepare();
  const { h } = ready;
  const before = h.files();
  h.resetLogs();
  clearNotices();
  const gate = crashAfterWrites(h, allowed);
  let atCrash = 0;
  gate.onCrash(() => (atCrash = noticeLog().length));
  const p = await op.act(ready);
  await settle();
  const noticesAfterCrash = noticeLog().slice(atCrash);
  const where = `${op.name}, crash at write ${allowed}${back ? ` (${back.label})` : ""}`;
  checkNotices(where);
  if (gate.crashed) await checkUsable(p, where);
  // The app dies: nothing of this instance runs any more.
  p.unload();
  gate.restore();
  if (back === null) return { gate, noticesAfterCrash };

  jest.setSystemTime(Date.now() + back.after * MINUTE);
  if (back.cacheCaughtUp) h.catchUpCache();
  else if (
    gate.log.slice(0, allowed).some((w) => /^vault\.(?:create|process) /.test(w)) &&
    h.pendingCache().length === 0
  ) {
    throw new Error(`${where}: the metadata cache was meant to lag behind the crashed instance's writes`);
  }
  const noticesBefore = noticeLog().length;
  const fresh = await loadPlugin(h, { device: DEVICE });
  if (modals().length > 0) await answerRecovery(back.answer);
  if (op.retry) await op.retry(fresh);
  await fresh.run("rebuild-views");
  checkNotices(where);
  // Coming back works: nothing the fresh instance does fails.
  const failed = noticeLog()
    .slice(noticesBefore)
    .filter((n) => n.startsWith("Could not"));
  if (failed.length > 0) throw new Error(`${where}: the fresh instance failed: ${failed.join(" | ")}`);
  checkVault(h, before, op, ready, where);
  fresh.unload();
  return { gate, noticesAfterCrash };
}

describe("a crash at every write of a plugin operation", () => {
  let errorSpy: jest.SpyInstance;
  beforeEach(() => {
    // The flows log unexpected errors to the console as well as showing a notice; keep the output readable.
    errorSpy = jest.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => errorSpy.mockRestore());
  // The figures for docs/reliability.md: operations, crash points (k = 0 … writes, the last one uninterrupted)
  // and fresh-instance runs (each crash point comes back in three ways).
  const figures = { operations: 0, crashPoints: 0, freshRuns: 0 };
  afterAll(() => {
    process.stdout.write(
      `crash-plugin: ${figures.operations} operations, ${figures.crashPoints} crash points, ` +
        `${figures.freshRuns} fresh-instance runs checked\n`,
    );
  });

  it.each(operations.map((op) => [op.name, op] as const))(
    "%s loses, duplicates and half-writes nothing",
    async (_name, op) => {
      const uninterrupted = await runOnce(op, Number.POSITIVE_INFINITY, null);
      const total = uninterrupted.gate.attempts;
      if (op.success)
        expect(uninterrupted.noticesAfterCrash).toEqual(expect.arrayContaining([expect.stringMatching(op.success)]));
      expect(uninterrupted.noticesAfterCrash.filter((n) => n.startsWith("Could not"))).toEqual([]);
      // Every write goes through the Vault or the FileManager (contract §5), never around them through the adapter.
      expect(uninterrupted.gate.log.filter((w) => w.startsWith("adapter.") || w.startsWith("vault.delete "))).toEqual(
        [],
      );

      figures.operations++;
      for (let k = 0; k <= total; k++) {
        figures.crashPoints++;
        for (const back of [LATER, AT_ONCE, LATER_LAGGING]) {
          const { gate, noticesAfterCrash } = await runOnce(op, k, back);
          figures.freshRuns++;
          // The same writes in the same order up to the crash, and the crash where it was meant to be.
          expect({ k, log: gate.log.slice(0, k).map(withoutIds) }).toEqual({
            k,
            log: uninterrupted.gate.log.slice(0, k).map(withoutIds),
          });
          expect({ k, crashed: gate.crashed }).toEqual({ k, crashed: k < total });
          // Said at once, in words: not a silent failure.
          if (k < total) {
            const expected = op.crashNotice(k, gate.log.slice(0, k));
            expect({ k, noticesAfterCrash, said: noticesAfterCrash.some((n) => expected.test(n)) }).toMatchObject({
              k,
              said: true,
            });
          }
        }
      }
    },
  );
});

/** Random parts of IDs vary from run to run; the kind and place of each write does not. */
function withoutIds(entry: string): string {
  return entry.replace(/DRAFT-S-[0-9a-f]{8}/g, "DRAFT-S-…").replace(/S-\d{8}T\d{6}-[0-9a-f]{4}/g, "S-…");
}
