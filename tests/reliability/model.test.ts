/**
 * Model-based property test (issue 4 §3): random sequences of starts, checkpoints, ends, recoveries,
 * start-ups, rebuilds, crashes, external edits, clock jumps (also backwards and across DST) and device
 * switches, run against the real core on an in-memory store. After every step the reference model
 * (./model.ts) checks the invariants of contract §6 and the answers contract §4 fixes.
 *
 *   MODEL_RUNS (default 1000)  MODEL_STEPS (default 30)  MODEL_SEED (default: random, shown in the test name)
 *   MODEL_PATH (with MODEL_SEED: replay one failing case, as printed by fast-check)
 *   npm run soak               20 000 runs of up to 60 steps (scripts/soak.mjs)
 */
import fc from "fast-check";
import type { AsyncCommand } from "fast-check";
import type { Model, World } from "./model";
import {
  Checkpoint,
  ClockJump,
  Crash,
  EDITS,
  End,
  ExternalEdit,
  Log,
  OpenVault,
  Read,
  Recover,
  Start,
  SwitchDevice,
  nextStartUp,
  setup,
  stats,
  step,
} from "./model";

const RUNS = Number(process.env.MODEL_RUNS ?? 1000);
const STEPS = Number(process.env.MODEL_STEPS ?? 30);
const SEED = process.env.MODEL_SEED ? Number(process.env.MODEL_SEED) : Math.floor(Math.random() * 0x7fffffff);
const PATH = process.env.MODEL_PATH;

/** One run: a fresh vault, the steps, then the next start-up. */
async function runScenario(
  steps: Iterable<AsyncCommand<Model, World, boolean>>,
  seed = 1,
): Promise<{ model: Model; real: World }> {
  let state: { model: Model; real: World } | null = null;
  await fc.asyncModelRun(() => (state = setup(seed)), steps);
  if (state === null) throw new Error("the run did not set up");
  const { model, real } = state;
  await nextStartUp(model, real);
  return state;
}

/** The property: `runs` random runs from `seed`. */
async function holds(runs: number, seed: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 0x7fffffff }),
      fc.commands([step], { maxCommands: STEPS, size: "max" }),
      async (seed, steps) => {
        await runScenario(steps, seed);
      },
    ),
    { numRuns: runs, seed, path: PATH, endOnFailure: PATH !== undefined },
  );
}

/**
 * A seed whose 1 000 runs reach every outcome below. The rarest ("end already saved", about 4 in 1 000 runs)
 * is missed by about one random seed in fifty: the check then adds these runs, so that it fails only when the
 * generator no longer reaches an outcome at all, never by the luck of the seed. (Seed 11 stopped reaching
 * "hook SessionEnd ended" once an agent's empty session is discarded rather than ended: 12 reaches all.)
 */
const COVERING_SEED = 12;

describe("the reference model", () => {
  it(
    `holds for ${RUNS} runs of up to ${STEPS} steps (MODEL_SEED=${SEED})`,
    async () => {
      await holds(RUNS, SEED);
    },
    60_000 + RUNS * STEPS * 20,
  );

  it(
    "reaches every kind of step and outcome",
    async () => {
      // Only meaningful after the property above ran with enough runs.
      if (RUNS < 200) return;
      const steps = Object.fromEntries(stats.byStep);
      const outcomes = Object.fromEntries(stats.outcomes);
      if (process.env.MODEL_REPORT)
        process.stdout.write(
          `${JSON.stringify({ runs: stats.runs, steps: stats.steps, byStep: steps, outcomes }, null, 1)}\n`,
        );
      const kinds = [
        "start",
        "checkpoint",
        "end",
        "agent-end",
        "recover-resume",
        "recover-save",
        "recover-discard",
        "recover-ignore",
        "triageOnOpen",
        "rebuild",
        "list",
        "status",
        "next",
        "year",
      ];
      const world = ["clock forward", "clock back", "DST change", "device switch", "cache", "sync keeps time"];
      for (const kind of [...kinds, "crash", ...EDITS, ...world]) {
        expect([kind, (steps[kind] ?? 0) > 0]).toEqual([kind, true]);
      }
      const reached = [
        "device memory trusted",
        "device memory trusted, over a day old",
        "device memory learned afresh",
        "crash fired",
        "start started",
        "start drafts_pending",
        "start already_open",
        "start kept",
        "end saved",
        "end already saved",
      ];
      reached.push(
        "recover saved",
        "recover saved (already)",
        "recover resumed",
        "recover discarded",
        "triageOnOpen resumed, none pending",
        "triageOnOpen open elsewhere, none pending",
      );
      reached.push("end refused: session_open_elsewhere", "checkpoint refused: session_open_elsewhere");
      // Issue 37: next folds the older notes' review days for the next call (taken: incremental-views.test.ts).
      reached.push("older review days saved");
      // Version 2 (honest time): pause, continue, log, and an end refused for a long silence.
      for (const kind of ["pause", "continue", "log"]) expect([kind, (steps[kind] ?? 0) > 0]).toEqual([kind, true]);
      reached.push("pause done", "continue done", "log logged", "log refused: overlap", "end refused: long_silence");
      // Version 3 (contract §4b): agents' ends save their own sessions and leave the others alone.
      reached.push("agent end saved", "agent end not_this_agent", "agent end nothing_open");
      // palee session hook: a conversation starts, checkpoints and ends its own session, and leaves others alone.
      expect(["hook", (steps.hook ?? 0) > 0]).toEqual(["hook", true]);
      reached.push("hook SessionStart started", "hook SessionStart kept", "hook Stop checkpointed");
      reached.push("hook UserPromptSubmit ignored", "hook SessionEnd ended", "hook SessionEnd ignored");
      if (reached.some((outcome) => !stats.outcomes.get(outcome)) && SEED !== COVERING_SEED)
        await holds(1000, COVERING_SEED);
      const now = Object.fromEntries(stats.outcomes);
      for (const outcome of reached) expect([outcome, (now[outcome] ?? 0) > 0]).toEqual([outcome, true]);
    },
    60_000 + 1000 * STEPS * 20,
  );
});

describe("found by the model", () => {
  // Shrunk from: switch to tablet, checkpoint(T-a), switch to laptop, crash after 1 write, recover(#0, discard),
  // clock +1 d, end(T-a). Discard trashed the draft, then crashed before clearing hot.md's pointer to it; on
  // one device, reconcile then closed the pointer to the vanished draft and end (or a new checkpoint draft)
  // took the discarded session's start as its own: a 1 440-minute session recorded from a discarded one.
  // Fixed in recover/discard: the pointer is cleared first, so the crash leaves the draft to decide again.
  it("never dates a session by the start of a session the learner discarded, after discard crashed", async () => {
    const crashed = await runScenario([new Start("T-a", false, false), new Crash(1), new Recover(0, "discard")]);
    const hot = crashed.real.store.files.get("palee/hot.md") ?? "";
    expect([
      /open_draft: null/.test(hot),
      [...crashed.real.store.files.keys()].filter((p) => p.includes("/DRAFT-S-")).length,
    ]).toEqual([true, 1]);

    const { real } = await runScenario([
      new Start("T-a", false, false),
      new Crash(1),
      new Recover(0, "discard"),
      new ClockJump(30),
      new End("T-a", "none", false),
    ]);
    const notes = [...real.store.files.entries()].filter(([p]) => /\/S-/.test(p)).map(([, text]) => text);
    // The discard did not happen, so the draft is still the learner's: end --topic absorbs it (tier 1). (A day
    // later, with no open session, it would be an interrupted session left for recovery: contract §4 end.)
    expect(notes.map((text) => /absorbed_drafts:\n {2}- DRAFT-S-/.test(text))).toEqual([true]);
  });

  it("never lets a new checkpoint draft inherit the start of a discarded session, after discard crashed", async () => {
    await runScenario([
      new Start("T-a", false, false),
      new Crash(1),
      new Recover(0, "discard"),
      new ClockJump(30),
      new Checkpoint("T-a", false, false),
    ]);
  });

  // Shrunk from: start(T-c), clock back 2 min, crash after 1 write, end(), checkpoint with notes. The end ran
  // with the clock behind the draft's start, so its note is named from that earlier now; it crashed before
  // trashing the draft, and checkpoint's fast path (which looked for absorbing notes named from a minute before
  // the draft's start on) missed the note and appended the notes to the saved draft, which the next reconcile
  // moved to the trash. Fixed in maybeAbsorbed: it looks a day back.
  it("never appends checkpoint notes to a draft saved by an end run while the clock was behind", async () => {
    const { real } = await runScenario([
      new Start("T-c", false, false),
      new ClockJump(-2),
      new Crash(1),
      new End(null, "none", false),
      new Checkpoint(null, true, false),
    ]);
    expect([...real.store.files.keys()].filter((p) => p.includes("/DRAFT-S-")).length).toBe(1);
  });

  // MODEL_SEED=852137200, shrunk: log(T-a), start, crash after 1 write, end, the learner edits draft #0,
  // recover(#0, discard). The end wrote its note and crashed before trashing the draft; the edit gave the
  // draft text the note lacks, so reconcile keeps it (issue 35 §4); discard answered "discarded" and left it
  // there. Contract §4 recover: Discard moves the draft to the trash (the text goes with it, never lost).
  it("moves a saved draft the learner typed into to the trash when they discard it, after end crashed", async () => {
    const { real } = await runScenario([
      new Log("T-a", 1, 0),
      new Start(null, false, false),
      new Crash(1),
      new End(null, "none", false),
      new ExternalEdit("edit draft body", 0),
      new Recover(0, "discard"),
    ]);
    expect([...real.store.files.keys()].filter((p) => p.includes("/DRAFT-S-"))).toEqual([]);
    expect(real.store.trashed.filter((t) => t.content.includes("(edit 1)"))).toHaveLength(1);
  });
});

/**
 * Shrunk cases kept as plain scenarios. The model found no bug in the core; the first case is where the model
 * itself was wrong (it expected text typed into an already saved draft to reach the note).
 */
describe("scenarios from the model", () => {
  it("keeps text typed into a draft that a crash left behind after saving it: never only in the trash", async () => {
    const { real } = await runScenario([
      new Start("T-b", false, false),
      new Crash(1), // end writes the confirmed note, then crashes before trashing the draft
      new End(null, "none", false),
      new ExternalEdit("edit draft body", 0),
    ]);
    // Issue 35 §4: the edit is not in the saved note, so the draft stays where the learner can find it.
    expect(real.store.trashed.map((t) => t.content.includes("(edit 1)"))).toEqual([]);
    expect([...real.store.files.values()].some((text) => text.includes("(edit 1)"))).toBe(true);
  });

  // MODEL_SEED=3 and 7, shrunk: the model expected list to count a draft that a Save cut short had already
  // saved; since issue 35 §4, list answers as reconcile would (named in a warning, not listed as a draft).
  it("lists a draft a Save cut short already saved as finished, naming the note, not as a draft", async () => {
    const steps = [new Start("T-a", false, false), new Crash(1), new Recover(0, "save"), new Read("list")];
    const { real } = await runScenario(steps);
    // After the next start-up (reconcile): the one note, and the finished draft in the trash.
    const paths = [...real.store.files.keys()];
    expect([paths.filter((p) => p.includes("/S-")).length, paths.filter((p) => p.includes("/DRAFT-S-"))]).toEqual([
      1,
      [],
    ]);
    expect(real.store.trashed.map((t) => t.path)).toEqual([expect.stringMatching(/\/DRAFT-S-[0-9a-f]{8}\.md$/)]);
  });

  it("saves a session once when end crashes after the note and the learner ends again", async () => {
    const { real } = await runScenario([
      new Start("T-a", false, false),
      new Checkpoint(null, true, false),
      new Crash(1),
      new End(null, "short", false),
      new End(null, "short", true),
    ]);
    expect([...real.store.files.keys()].filter((p) => /\/S-/.test(p))).toHaveLength(1);
  });

  it("leaves a session alive on another device alone, then lets that device end it", async () => {
    const { real } = await runScenario([
      new Start("T-a", false, false),
      new SwitchDevice("phone"),
      new OpenVault(),
      new End("T-a", "short", false), // refused: open on laptop
      new Start("T-b", false, false), // already_open
      new SwitchDevice("laptop"),
      new ClockJump(10),
      new End(null, "short", true),
    ]);
    const notes = [...real.store.files.entries()].filter(([p]) => /\/S-/.test(p));
    expect(notes.map(([, text]) => /duration_minutes: (\d+)/.exec(text)?.[1])).toEqual(["10"]);
  });
});
