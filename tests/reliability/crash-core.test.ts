/**
 * A crash at every write of every operation (contract §6.2), on the core with the in-memory store: for each
 * scenario, count the writes k of an uninterrupted run, then for every k = 0 … writes let exactly k writes
 * through and fail the rest. After each crash the vault is checked as it is (nothing half-written, nothing
 * removed), then a fresh PaleeSessions on the same files does what a learner's next start-up does — the
 * plugin's vault open followed by Save (or Ignore) of the leftover drafts, or the CLI's start that reconciles
 * and stops on pending drafts — and a rebuild; then every invariant of tests/reliability/invariants.ts must
 * hold. Where it applies, the learner instead simply retries the failed command: no second confirmed note.
 */
import { classifyRecord, updateFrontmatterFields } from "../../src/core/records/frontmatter";
import { UsageError } from "../../src/core/errors";
import { layoutFor } from "../../src/core/records/layout";
import type { SessionStore } from "../../src/core/ports";
import { PaleeSessions } from "../../src/core/sessions";
import { answerHook } from "../../src/core/agent-hook/answer";
import { parseHookEvent } from "../../src/core/agent-hook/event";
import { confirmedText, draftText, hotText } from "../support/builders";
import { CrashingStore, SimulatedCrash } from "../support/crashing-store";
import { FakeClock, SeededRandom } from "../support/fakes";
import { HOT, INDEX, S, confirmedPaths } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";
import type { InvariantOptions } from "./invariants";
import { invariantViolations, vaultOf } from "./invariants";

const DEVICE = "laptop";
const T0 = "2026-08-14T12:00:00Z";

type Files = Record<string, string>;

// ---- starting vaults ----------------------------------------------------------------------------

const USER_FILES: Files = {
  "palee/My notes.md": "# My notes\n\nKept beside the sessions, never touched.\n",
  "Other/x.md": "---\ntags: [x]\n---\nUnrelated note.\n",
};

const HISTORY: Files = {
  [S("S-20260811T090000-a1b2")]: confirmedText(
    {
      session_id: "S-20260811T090000-a1b2",
      topic_id: "T-a",
      started_at: "2026-08-11T09:00:00+00:00",
      ended_at: "2026-08-11T09:30:00+00:00",
      duration_minutes: 30,
      absorbed_drafts: ["DRAFT-S-00000011"],
    },
    { summary: "Borrowing basics.", notes: "first notes" },
  ),
  [S("S-20260812T090000-c3d4")]: confirmedText(
    {
      session_id: "S-20260812T090000-c3d4",
      topic_id: "T-b",
      started_at: "2026-08-12T09:00:00+00:00",
      ended_at: "2026-08-12T10:00:00+00:00",
      duration_minutes: 60,
    },
    { summary: "Lifetimes." },
  ),
  [S("S-20260813T100000-e5f6")]: confirmedText(
    {
      session_id: "S-20260813T100000-e5f6",
      topic_id: "T-a",
      started_at: "2026-08-13T10:00:00+05:30",
      ended_at: "2026-08-13T10:45:00+05:30",
      outcome: "interrupted",
      absorbed_drafts: ["DRAFT-S-00000013"],
    },
    { summary: "Moves and clones.", next: "Practise Rc.", notes: "some notes" },
  ),
};

/** The open session of this device on T-a (hot.md points at it), checkpointed five minutes ago. */
const OPEN_A = "DRAFT-S-0000000a";
/** A second draft of T-a, started after the open session (an end absorbs it too). */
const SECOND_A = "DRAFT-S-0000000b";
/** T-a open on the phone, checkpointed two minutes ago: alive elsewhere, left alone by this device. */
const PHONE_A = "DRAFT-S-0000000c";
/** An interrupted session on T-b from this morning (no session open). */
const OLD_B = "DRAFT-S-0000000d";

const drafts: Files = {
  [S(OPEN_A)]: draftText(
    {
      session_id: OPEN_A,
      topic_id: "T-a",
      started_at: "2026-08-14T11:00:00+00:00",
      last_checkpoint_at: "2026-08-14T11:55:00+00:00",
    },
    "notes of a\n",
  ),
  [S(SECOND_A)]: draftText(
    {
      session_id: SECOND_A,
      topic_id: "T-a",
      started_at: "2026-08-14T11:10:00+00:00",
      last_checkpoint_at: "2026-08-14T11:50:00+00:00",
    },
    "notes of b\n",
  ),
  [S(PHONE_A)]: draftText(
    {
      session_id: PHONE_A,
      topic_id: "T-a",
      device: "phone",
      started_at: "2026-08-14T11:20:00+00:00",
      last_checkpoint_at: "2026-08-14T11:58:00+00:00",
    },
    "phone notes\n",
  ),
  [S(OLD_B)]: draftText(
    {
      session_id: OLD_B,
      topic_id: "T-b",
      started_at: "2026-08-14T08:00:00+00:00",
      last_checkpoint_at: "2026-08-14T08:40:00+00:00",
    },
    "notes of d\n",
  ),
};
const pick = (...ids: string[]): Files => Object.fromEntries(ids.map((id) => [S(id), drafts[S(id)] ?? ""]));
const silentPhoneDraft = draftText(
  {
    session_id: OPEN_A,
    topic_id: "T-a",
    device: "phone",
    started_at: "2026-08-14T11:00:00+00:00",
    last_checkpoint_at: "2026-08-14T11:30:00+00:00",
  },
  "phone notes\n",
);
const pausedA = (drafts[S(OPEN_A)] ?? "").replace(
  "\nstatus: draft\n",
  '\nstatus: draft\npaused_at: "2026-08-14T11:50:00+00:00"\nbreak_minutes: 5\n',
);
/** The open session of T-a as an agent host opened it (contract §4b `start --agent`). */
const AGENT = "claude-code:5f1c";
const expectDid =
  (expected: string) =>
  (did: string): void => {
    if (did !== expected) throw new Error(`the hook answered ${did}, not ${expected}`);
  };
/** One hook event of the conversation that is AGENT, as `palee session hook` maps it. */
async function hookEvent(
  c: PaleeSessions,
  name: string,
  extra: Record<string, string> = {},
  topic: string | null = null,
): Promise<string> {
  const event = parseHookEvent(JSON.stringify({ hook_event_name: name, session_id: "5f1c", ...extra }));
  return (await answerHook(c, event, { topic, words: 400 })).did;
}
const agentsA = (drafts[S(OPEN_A)] ?? "").replace("\nstatus: draft\n", `\nstatus: draft\nagent: "${AGENT}"\n`);
const earlyA = (drafts[S(OPEN_A)] ?? "").replace("11:55:00", "10:55:00");
const withBreakA = (drafts[S(OPEN_A)] ?? "").replace("\nstatus: draft\n", "\nstatus: draft\nbreak_minutes: 45\n");
const openPointer = hotText({
  active_topic: "T-a",
  started_at: "2026-08-14T11:00:00+00:00",
  open_draft: OPEN_A,
  device: DEVICE,
});

function core(store: SessionStore, clock = FakeClock.at(T0), seed = 7, device = DEVICE): PaleeSessions {
  return new PaleeSessions({ store, clock, random: new SeededRandom(seed), device }, layoutFor("palee"));
}

/** History, user files and consistent views (as a rebuild writes them), then `extra` on top. */
async function vault(extra: Files = {}, options: { activeTopic?: string } = {}): Promise<Files> {
  const store = new MemoryStore({ ...USER_FILES, ...HISTORY });
  await core(store).rebuild();
  const files = store.snapshot();
  if (options.activeTopic)
    files[HOT] = updateFrontmatterFields(files[HOT] ?? "", { active_topic: options.activeTopic });
  for (const [path, text] of Object.entries(extra)) {
    if (text === DELETE) delete files[path];
    else files[path] = text;
  }
  return files;
}
const DELETE = "\u0000delete";

// ---- scenarios ------------------------------------------------------------------------------------

interface Scenario {
  name: string;
  vault: () => Promise<Files>;
  run: (c: PaleeSessions) => Promise<unknown>;
  /** The operation writes nothing (then only that is checked, and the vault after a start-up). */
  writesNothing?: boolean;
  /** Retrying the same command after a crash must not add a confirmed note (default true). */
  retry?: boolean;
  invariants?: InvariantOptions;
}

const T_A_OPEN = (): Promise<Files> => vault({ [HOT]: openPointer, ...pick(OPEN_A) });

const scenarios: Scenario[] = [
  // start
  { name: "start on an empty vault", vault: () => Promise.resolve({}), run: (c) => c.start({ topic: "T-new" }) },
  { name: "start on a vault with history", vault: () => vault(), run: (c) => c.start({ topic: "T-c" }) },
  {
    name: "start with the active topic of hot.md",
    vault: () => vault({}, { activeTopic: "T-a" }),
    run: (c) => c.start(),
  },
  {
    name: "start with a corrupt hot.md",
    vault: () => vault({ [HOT]: "---\nactive_topic: [unclosed\n---\nbody\n" }),
    run: (c) => c.start({ topic: "T-c" }),
  },
  { name: "start with hot.md missing", vault: () => vault({ [HOT]: DELETE }), run: (c) => c.start({ topic: "T-c" }) },
  {
    name: "start with a hot.md of schema 2",
    vault: () => vault({ [HOT]: hotText({ palee_schema: 2 }) }),
    run: (c) => c.start({ topic: "T-c" }),
  },
  {
    name: "start with a hot.md without frontmatter",
    vault: () => vault({ [HOT]: "My own working memory.\n" }),
    run: (c) => c.start({ topic: "T-c" }),
  },
  // checkpoint
  { name: "checkpoint, fast path", vault: T_A_OPEN, run: (c) => c.checkpoint() },
  { name: "checkpoint with notes appended", vault: T_A_OPEN, run: (c) => c.checkpoint({ notes: "more notes" }) },
  {
    name: "checkpoint of another device's silent session",
    vault: () =>
      vault({ [HOT]: openPointer.replace(`device: ${DEVICE}`, "device: phone"), [S(OPEN_A)]: silentPhoneDraft }),
    run: (c) => c.checkpoint({ notes: "taken over" }),
  },
  {
    name: "checkpoint creating a new draft",
    vault: () => vault(),
    run: (c) => c.checkpoint({ topic: "T-c", notes: "first notes" }),
  },
  {
    name: "checkpoint when hot.md points at a vanished draft",
    vault: () => vault({ [HOT]: openPointer }),
    run: (c) => c.checkpoint({ notes: "again" }),
  },
  // end
  { name: "end with one draft", vault: T_A_OPEN, run: (c) => c.end({ summary: "Done.", nextAction: "Next." }) },
  {
    name: "end with several drafts of the topic",
    vault: () => vault({ [HOT]: openPointer, ...pick(OPEN_A, SECOND_A) }),
    run: (c) => c.end({ summary: "Done." }),
  },
  { name: "end --topic with the session open", vault: T_A_OPEN, run: (c) => c.end({ topic: "T-a", summary: "Done." }) },
  {
    // Contract §4 end, version 3: with nothing open and no draft, an explicit topic records nothing.
    name: "end --topic with no session recorded (refused, nothing written)",
    vault: () => vault(),
    run: (c) =>
      c.end({ topic: "T-c", summary: "From now." }).then(
        () => {
          throw new Error("end recorded a session nobody studied");
        },
        (e: unknown) => {
          if (!(e instanceof UsageError) || e.kind !== "nothing_open") throw e;
        },
      ),
    writesNothing: true,
  },
  {
    name: "end leaving another device's live draft alone",
    vault: () => vault({ [HOT]: openPointer, ...pick(OPEN_A, PHONE_A) }),
    run: (c) => c.end({ summary: "Done." }),
    invariants: { untouched: [S(PHONE_A)] },
  },
  {
    name: "end with hot.md damaged (caller names its session)",
    vault: () => vault({ [HOT]: "---\n: [\n---\n", ...pick(OPEN_A) }),
    run: (c) => c.end({ open: { draftId: OPEN_A, topicId: "T-a" } }),
  },
  // Version 3 (contract §4b): an agent's end of its own session, and of the learner's (refused).
  {
    name: "end --agent of the agent's own session, with outcome and a last note",
    vault: () => vault({ [HOT]: openPointer, [S(OPEN_A)]: agentsA }),
    run: (c) => c.end({ agent: AGENT, outcome: "interrupted", note: "cut short", summary: "Done." }),
  },
  {
    name: "end --agent with the learner's session open (refused, nothing written)",
    vault: T_A_OPEN,
    run: (c) =>
      c.end({ agent: AGENT, summary: "Not mine." }).then(
        () => {
          throw new Error("an agent ended the learner's session");
        },
        (e: unknown) => {
          if (!(e instanceof UsageError) || e.kind !== "not_this_agent") throw e;
        },
      ),
    writesNothing: true,
  },
  // palee session hook (contract §4b): a conversation's events, through the core mapping the CLI runs.
  {
    name: "hook SessionEnd of the agent's own session (at its last sign of life, interrupted)",
    vault: () => vault({ [HOT]: openPointer, [S(OPEN_A)]: agentsA }),
    run: (c) => hookEvent(c, "SessionEnd", { reason: "other" }).then(expectDid("ended")),
  },
  {
    name: "hook Stop: a checkpoint of the agent's own session",
    vault: () => vault({ [HOT]: openPointer, [S(OPEN_A)]: agentsA }),
    run: (c) => hookEvent(c, "Stop").then(expectDid("checkpointed")),
  },
  {
    name: "hook SessionStart: the conversation's own session",
    vault: () => vault(),
    run: (c) => hookEvent(c, "SessionStart", { source: "startup" }, "T-c").then(expectDid("started")),
  },
  {
    name: "hook SessionEnd with the learner's session open (nothing written)",
    vault: T_A_OPEN,
    run: (c) => hookEvent(c, "SessionEnd", { reason: "prompt_input_exit" }).then(expectDid("ignored")),
    writesNothing: true,
  },
  // recover
  // Version 2, honest time (issue 11): each new operation, cut before every write.
  { name: "pause", vault: T_A_OPEN, run: (c) => c.pause() },
  {
    name: "continue",
    vault: () => vault({ [HOT]: openPointer, [S(OPEN_A)]: pausedA }),
    run: (c) => c.continueSession(),
  },
  { name: "end --at last", vault: T_A_OPEN, run: (c) => c.end({ endAt: { kind: "last" }, summary: "Done." }) },
  {
    name: "end --at HH:MM",
    vault: T_A_OPEN,
    run: (c) => c.end({ endAt: { kind: "given", text: "11:45" }, summary: "Done." }),
  },
  {
    name: "end of a paused session",
    vault: () => vault({ [HOT]: openPointer, [S(OPEN_A)]: pausedA }),
    run: (c) => c.end({ summary: "Done." }),
  },
  {
    name: "recover save of a paused draft",
    vault: () => vault({ [HOT]: openPointer, [S(OPEN_A)]: pausedA }),
    run: (c) => c.recover(OPEN_A, "save"),
  },
  // A retried log is refused as an overlap with the note the first one wrote: counted once.
  {
    name: "log",
    vault: () => vault(),
    run: (c) => c.log({ topic: "T-c", minutes: 20, summary: "From memory." }),
    invariants: { newUnabsorbedAllowed: 1 },
  },
  {
    name: "checkpoint with time away",
    vault: () => vault({ [HOT]: openPointer, [S(OPEN_A)]: earlyA }),
    run: (c) => c.checkpoint({ aliveAt: Date.parse("2026-08-14T10:55:00Z") }),
  },
  {
    name: "recover resume with time away",
    vault: () => vault({ [S(OPEN_A)]: earlyA }),
    run: (c) => c.recover(OPEN_A, "resume"),
  },
  {
    name: "count time away back",
    vault: () => vault({ [HOT]: openPointer, [S(OPEN_A)]: withBreakA }),
    // A draft of before version 3: its 45 min are one break ending at its last checkpoint (11:10–11:55).
    run: (c) =>
      c.countAwayBack({
        draftId: OPEN_A,
        fromMs: Date.parse("2026-08-14T11:25:00Z"),
        toMs: Date.parse("2026-08-14T11:55:00Z"),
      }),
  },
  { name: "recover resume", vault: () => vault(pick(OLD_B)), run: (c) => c.recover(OLD_B, "resume") },
  { name: "recover save", vault: () => vault(pick(OLD_B)), run: (c) => c.recover(OLD_B, "save") },
  {
    name: "recover save of the interrupted open session",
    vault: () =>
      vault({
        [HOT]: openPointer.replace("11:00:00", "08:00:00"),
        [S(OPEN_A)]: (drafts[S(OPEN_A)] ?? "").replace(/11:(00|55):00/g, "08:$1:00"),
      }),
    run: (c) => c.recover(OPEN_A, "save"),
  },
  {
    name: "recover save beside an open session",
    vault: () => vault({ [HOT]: openPointer, ...pick(OPEN_A, OLD_B) }),
    run: (c) => c.recover(OLD_B, "save"),
  },
  {
    name: "recover discard",
    vault: () => vault(pick(OLD_B)),
    run: (c) => c.recover(OLD_B, "discard"),
    invariants: { discarded: [OLD_B] },
  },
  {
    name: "recover discard of the open session",
    vault: T_A_OPEN,
    run: (c) => c.recover(OPEN_A, "discard"),
    invariants: { discarded: [OPEN_A] },
  },
  {
    name: "recover ignore",
    vault: () => vault(pick(OLD_B)),
    run: (c) => c.recover(OLD_B, "ignore"),
    writesNothing: true,
  },
  // rebuild
  {
    name: "rebuild of stale views with a session open",
    vault: () => vault({ [HOT]: openPointer, [INDEX]: DELETE, ...pick(OPEN_A) }),
    run: (c) => c.rebuild(),
  },
  {
    name: "rebuild of a hot.md of schema 2",
    vault: () => vault({ [HOT]: hotText({ palee_schema: 2 }), [INDEX]: "garbage" }),
    run: (c) => c.rebuild(),
  },
  // sequences
  {
    name: "end then start",
    vault: T_A_OPEN,
    run: (c) => c.end({ summary: "Done." }).then(() => c.start({ topic: "T-b" })),
    retry: false,
  },
  {
    name: "save then start",
    vault: () => vault(pick(OLD_B)),
    run: (c) => c.recover(OLD_B, "save").then(() => c.start({ topic: "T-b" })),
    retry: false,
  },
  {
    name: "start, checkpoint, end on an empty vault",
    vault: () => Promise.resolve({ ...USER_FILES }),
    run: async (c) => {
      await c.start({ topic: "T-new" });
      await c.checkpoint({ notes: "learned" });
      await c.end({ summary: "Done." });
    },
    retry: false,
  },
  {
    name: "ignore then start",
    vault: () => vault(pick(OLD_B)),
    run: (c) => c.recover(OLD_B, "ignore").then(() => c.start({ topic: "T-b", ignoreDrafts: new Set([OLD_B]) })),
    retry: false,
  },
  {
    name: "discard then start",
    vault: () => vault(pick(OLD_B)),
    run: (c) => c.recover(OLD_B, "discard").then(() => c.start({ topic: "T-b" })),
    retry: false,
    invariants: { discarded: [OLD_B] },
  },
];

// ---- the learner's next start-up ------------------------------------------------------------------

interface Recovery {
  name: string;
  /** When and on which device the next start-up happens. */
  at: string;
  device: string;
  /** The plugin's vault open and the recovery modal, or the CLI's start (start -i). */
  face: "plugin" | "cli";
  /** What the learner picks for each pending draft: Save (drafts of other devices: only when `anyDevice`) or Ignore. */
  save: boolean;
  anyDevice?: boolean;
}
const AFTER_A_FEW_MINUTES = "2026-08-14T12:03:00Z";
const VAULT_OPEN_SAVE: Recovery = {
  name: "vault open, save",
  at: AFTER_A_FEW_MINUTES,
  device: DEVICE,
  face: "plugin",
  save: true,
};
const RECOVERIES: Recovery[] = [
  VAULT_OPEN_SAVE,
  { name: "vault open, ignore", at: AFTER_A_FEW_MINUTES, device: DEVICE, face: "plugin", save: false },
  { name: "CLI start -i, save", at: AFTER_A_FEW_MINUTES, device: DEVICE, face: "cli", save: true },
  { name: "next day, vault open, save", at: "2026-08-15T09:00:00Z", device: DEVICE, face: "plugin", save: true },
  // Past the grace period: within it, the phone rightly takes a pointer of the laptop to a draft it does not
  // see for one that has not synced yet, and leaves it alone (architecture.md, Reconcile).
  {
    name: "on the phone half an hour later, vault open, save all",
    at: "2026-08-14T12:30:00Z",
    device: "phone",
    face: "plugin",
    save: true,
    anyDevice: true,
  },
];

/** The next start-up on a fresh core: recovery as a learner does it, then a rebuild. */
async function startUp(store: SessionStore, how: Recovery): Promise<void> {
  const fresh = core(store, FakeClock.at(how.at), 99, how.device);
  const saves = (d: { device: string | null }): boolean =>
    how.save && (how.anyDevice === true || d.device === null || d.device === how.device);
  if (how.face === "cli") {
    // palee session start -i: save (or ignore) each pending draft, then start (or keep the open session).
    const first = await fresh.start({ topic: "T-z", ifOpen: "keep" });
    if (first.status === "drafts_pending") {
      const ignored = new Set<string>();
      for (const d of first.drafts) {
        if (saves(d)) await fresh.recover(d.draftId, "save");
        else ignored.add(d.draftId);
      }
      const again = await fresh.start({ topic: "T-z", ifOpen: "keep", ignoreDrafts: ignored });
      expect(again.status).not.toBe("drafts_pending");
    }
  } else {
    const opened = await fresh.triageOnOpen();
    for (const d of opened.pending) await fresh.recover(d.draftId, saves(d) ? "save" : "ignore");
  }
  await fresh.rebuild();
  const list = await fresh.list({ all: true });
  expect(list.skipped).toEqual([]);
}

/** The invariants to check after a start-up: another device's start-up may recover what this one left alone. */
function optionsAfter(how: Recovery, scenario: Scenario): InvariantOptions | undefined {
  return how.device === DEVICE ? scenario.invariants : { ...scenario.invariants, untouched: [] };
}

// ---- the test -------------------------------------------------------------------------------------

const crashPoints: Array<[string, number]> = [];
let startUpCrashPoints = 0;
let nextCommandRuns = 0;

/**
 * Commands a learner may run right after a crash, before any start-up:
 * [name, command, sessions it may add from now].
 */
const NEXT_COMMANDS: Array<[string, (c: PaleeSessions) => Promise<unknown>, (crashed: MemoryStore) => number]> = [
  ["checkpoint with notes", (c) => c.checkpoint({ notes: "after the crash" }), () => 0],
  // A pointer whose draft is gone (start crashed before writing it, discard before clearing it) still dates
  // a session: end records it from hot.md's started_at (architecture.md, end), once.
  ["end", (c) => c.end({ summary: "after the crash" }), (crashed) => (danglingPointer(crashed) ? 1 : 0)],
  // Ends T-a's open session or its drafts' sitting, if any (else refused nothing_open): at most one session.
  ["end --topic T-a", (c) => c.end({ topic: "T-a", summary: "after the crash" }), () => 1],
  ["start --topic T-q", (c) => c.start({ topic: "T-q" }), () => 0],
];

/** hot.md names an open session of this device whose draft does not exist. */
function danglingPointer(store: MemoryStore): boolean {
  const hot = classifyRecord(store.files.get(HOT) ?? null);
  if (hot.state !== "ok" || typeof hot.fields.open_draft !== "string" || hot.fields.device !== DEVICE) return false;
  return !store.files.has(S(hot.fields.open_draft));
}

/** A command may refuse (a usage error: e.g. the draft to discard is already gone); anything else fails the test. */
function refusalsOnly(error: unknown): void {
  if (!(error instanceof UsageError)) throw error;
}

async function crashRun(scenario: Scenario, files: Files, k: number): Promise<{ store: MemoryStore; outcome: string }> {
  const store = new MemoryStore(files);
  const crashing = new CrashingStore(store, k);
  const outcome = await scenario.run(core(crashing)).then(
    () => "finished",
    (e: unknown) => (e instanceof SimulatedCrash ? "crashed" : `failed: ${e instanceof Error ? e.message : String(e)}`),
  );
  return { store, outcome };
}

describe("a crash at every write of every operation (core, in-memory store)", () => {
  afterAll(() => {
    const total = crashPoints.reduce((n, [, points]) => n + points, 0);
    // The figures for docs/reliability.md. Each crash point is followed by each of the RECOVERIES; each crash
    // before the end also by a second crash at every write of a start-up, by each of the NEXT_COMMANDS, and
    // (where it applies) by a retry of the same command.
    process.stdout.write(
      `crash-core: ${crashPoints.length} scenarios, ${total} crash points, ${startUpCrashPoints} ` +
        `second crashes during the start-up, ${nextCommandRuns} other commands run after a crash\n`,
    );
  });

  it.each(scenarios.map((s) => [s.name, s] as const))(
    "%s: every session exactly once after the next start-up",
    async (_name, scenario) => {
      const files = await scenario.vault();
      const uninterrupted = new MemoryStore(files);
      const counting = new CrashingStore(uninterrupted);
      await scenario.run(core(counting));
      const writes = counting.writes;
      if (scenario.writesNothing) expect(uninterrupted.snapshot()).toEqual(files);
      else expect(writes).toBeGreaterThan(0);
      crashPoints.push([scenario.name, writes + 1]);
      const expectedConfirmed = confirmedPaths(uninterrupted).length;

      for (let k = 0; k <= writes; k++) {
        const label = `${scenario.name}, ${k} of ${writes} writes`;
        for (const how of RECOVERIES) {
          const { store, outcome } = await crashRun(scenario, files, k);
          expect([label, outcome]).toEqual([label, k < writes ? "crashed" : "finished"]);
          // Right after the crash: nothing half-written, nothing lost, nothing removed.
          expect([
            label,
            "after the crash",
            invariantViolations(files, vaultOf(store), { ...scenario.invariants, phase: "crashed" }),
          ]).toEqual([label, "after the crash", []]);
          await startUp(store, how);
          expect([label, how.name, invariantViolations(files, vaultOf(store), optionsAfter(how, scenario))]).toEqual([
            label,
            how.name,
            [],
          ]);
        }
        if (k < writes) {
          // A second crash, at every write of the start-up that follows the first one; then a clean start-up.
          const probe = await crashRun(scenario, files, k);
          const recoveryCounter = new CrashingStore(probe.store);
          await startUp(recoveryCounter, VAULT_OPEN_SAVE);
          for (let j = 0; j < recoveryCounter.writes; j++) {
            const { store } = await crashRun(scenario, files, k);
            await expect(startUp(new CrashingStore(store, j), VAULT_OPEN_SAVE)).rejects.toBeInstanceOf(SimulatedCrash);
            await startUp(store, VAULT_OPEN_SAVE);
            expect([
              label,
              `start-up crashed after ${j} writes`,
              invariantViolations(files, vaultOf(store), scenario.invariants),
            ]).toEqual([label, `start-up crashed after ${j} writes`, []]);
            startUpCrashPoints++;
          }
        }
        if (k < writes) {
          // Or the learner runs another command first (it may be refused: that is fine), then the start-up.
          for (const [what, next, extra] of NEXT_COMMANDS) {
            const { store } = await crashRun(scenario, files, k);
            const mayRecord = extra(store);
            await next(core(store, FakeClock.at("2026-08-14T12:02:00Z"), 13)).catch(refusalsOnly);
            await startUp(store, VAULT_OPEN_SAVE);
            const options = {
              ...scenario.invariants,
              newUnabsorbedAllowed: (scenario.invariants?.newUnabsorbedAllowed ?? 0) + mayRecord,
            };
            expect([label, `then ${what}`, invariantViolations(files, vaultOf(store), options)]).toEqual([
              label,
              `then ${what}`,
              [],
            ]);
            nextCommandRuns++;
          }
        }
        if (k < writes && scenario.retry !== false) {
          // The learner runs the same command again: it finishes the job, never does it twice.
          const { store } = await crashRun(scenario, files, k);
          await scenario.run(core(store, FakeClock.at("2026-08-14T12:01:00Z"), 11)).catch(refusalsOnly);
          expect([label, "retried", confirmedPaths(store).length]).toEqual([label, "retried", expectedConfirmed]);
          await startUp(store, VAULT_OPEN_SAVE);
          expect([label, "retried", invariantViolations(files, vaultOf(store), scenario.invariants)]).toEqual([
            label,
            "retried",
            [],
          ]);
        }
      }
    },
  );
});

describe("the invariant checker", () => {
  /** A vault before and after a real, uninterrupted end of the open session (OPEN_A and SECOND_A absorbed). */
  async function ended(): Promise<{ before: Files; after: MemoryStore; saved: string }> {
    const before = await vault({ [HOT]: openPointer, ...pick(OPEN_A, SECOND_A, OLD_B) });
    const after = new MemoryStore(before);
    const result = await core(after).end({ summary: "Done." });
    return { before, after, saved: S(result.session.sessionId) };
  }
  const problemsOf = (before: Files, store: MemoryStore, options?: InvariantOptions): string[] =>
    invariantViolations(before, vaultOf(store), options);
  const edit = (store: MemoryStore, path: string, change: (text: string) => string): void => {
    store.files.set(path, change(store.files.get(path) ?? ""));
  };

  it("finds nothing wrong after an uninterrupted end", async () => {
    const { before, after } = await ended();
    expect(problemsOf(before, after)).toEqual([]);
  });

  it.each<[string, (store: MemoryStore, saved: string) => void, RegExp]>([
    [
      "a draft that vanished",
      (s) => s.files.delete(S(OLD_B)),
      /DRAFT-S-0000000d.md vanished without going to the trash/,
    ],
    ["a draft trashed without being saved", (s) => void s.trash(S(OLD_B)), /DRAFT-S-0000000d is lost/],
    [
      "a session saved twice",
      (s, saved) =>
        s.files.set(
          saved.replace(/-[0-9a-f]{4}\.md$/, "-ffff.md"),
          (s.files.get(saved) ?? "").replace(/session_id: (S-\d{8}T\d{6})-[0-9a-f]{4}/, "session_id: $1-ffff"),
        ),
      /is saved twice/,
    ],
    [
      "a draft still on disk beside the note that saved it",
      (s) => s.files.set(S(OPEN_A), drafts[S(OPEN_A)] ?? ""),
      /DRAFT-S-0000000a exists twice/,
    ],
    [
      "a changed confirmed note",
      (s) => edit(s, S("S-20260812T090000-c3d4"), (t) => `${t}edited\n`),
      /S-20260812T090000-c3d4.md was changed/,
    ],
    [
      "a removed confirmed note",
      (s) => s.files.delete(S("S-20260812T090000-c3d4")),
      /S-20260812T090000-c3d4.md was removed/,
    ],
    ["a removed user file", (s) => s.files.delete("Other/x.md"), /Other\/x.md was removed/],
    ["a trashed view", (s) => void s.trash(INDEX), /palee\/index.md went to the trash/],
    [
      "a half-written confirmed note",
      (s, saved) => edit(s, saved, (t) => t.slice(0, 60)),
      /reads as corrupt|not a complete confirmed session/,
    ],
    ["a stray file", (s) => s.files.set("palee/sessions/.S-x.md.tmp", "x"), /stray file palee\/sessions\/.S-x.md.tmp/],
    [
      "a stale index",
      (s) => edit(s, INDEX, (t) => t.replace(/^- \[\[S-20260812T090000-c3d4.*\n/m, "")),
      /index.md lists/,
    ],
    [
      "a wrong total",
      (s) => edit(s, INDEX, (t) => t.replace(/Total sessions: \d+/, "Total sessions: 9")),
      /Total sessions: 9/,
    ],
    [
      "a stale last_session",
      (s) => edit(s, HOT, (t) => updateFrontmatterFields(t, { last_session: "S-20260813T100000-e5f6" })),
      /last_session is S-20260813T100000-e5f6/,
    ],
    [
      "a pointer at a missing draft",
      (s) =>
        edit(s, HOT, (t) =>
          updateFrontmatterFields(t, { open_draft: "DRAFT-S-99999999", started_at: "2026-08-14T11:00:00+00:00" }),
        ),
      /points at DRAFT-S-99999999/,
    ],
    [
      "lost notes",
      (s, saved) => edit(s, saved, (t) => t.replace("notes of b", "")),
      /notes of DRAFT-S-0000000b are missing/,
    ],
  ])("notices %s", async (_what, damage, expected) => {
    const { before, after, saved } = await ended();
    damage(after, saved);
    expect(problemsOf(before, after).join("\n")).toMatch(expected);
  });

  it("notices a crash of an end that trashed the drafts before saving them", async () => {
    const before = await vault({ [HOT]: openPointer, ...pick(OPEN_A) });
    const store = new MemoryStore(before);
    await store.trash(S(OPEN_A)); // the wrong order, then the crash
    expect(problemsOf(before, store, { phase: "crashed" })).toEqual([
      "DRAFT-S-0000000a is lost (neither a draft nor absorbed)",
    ]);
  });
});
