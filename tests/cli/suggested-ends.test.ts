/**
 * Every command a long-silence message suggests runs as written and is accepted (issue 35 §4): status's hint,
 * start's "already open" refusal and end's own long_silence refusal, on a session with its draft and on one
 * whose draft is gone (only hot.md dates it: an end at now would count the whole silence, so it is refused).
 */
import { Readable } from "node:stream";
import { run } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/output";
import type { RunResult } from "./support";
import {
  DEVICE,
  ago,
  cleanupVaults,
  draftId,
  expectCleanError,
  exists,
  makeVault,
  palee,
  snapshot,
  testCacheDir,
  writeDraft,
  writeHot,
} from "./support";

afterEach(cleanupVaults);

const ID = draftId("5113ce00");

/** This device's open session on T-a, started `startedAgo` minutes ago; its draft last checkpointed, or gone. */
function silentSession(startedAgo: number, checkpointAgo: number | "gone"): string {
  const vault = makeVault();
  if (checkpointAgo !== "gone") {
    writeDraft(vault, { id: ID, topic: "T-a", startedAt: ago(startedAgo), lastCheckpointAt: ago(checkpointAgo) });
  }
  writeHot(vault, { activeTopic: "T-a", startedAt: ago(startedAgo), openDraft: ID, device: DEVICE });
  return vault;
}

/** The `palee session …` commands quoted in a message, as argument lists (without `palee session`). */
function quotedCommands(text: string): string[][] {
  return [...text.matchAll(/"palee session ([^"]+)"/g)].map((m) => m[1].split(" "));
}

/** The `--at <value>` answers a message names. */
function atAnswers(text: string): string[] {
  return [...text.matchAll(/--at ([^\s,;)]+)/g)].map((m) => m[1]);
}

function expectEnded(run: RunResult): Record<string, unknown> {
  expect([run.status, run.stderr]).toEqual([0, expect.any(String)]);
  const doc = run.json();
  expect(doc.status).toBe("ended");
  return doc.session as Record<string, unknown>;
}

describe("a long silence with the session's draft", () => {
  it("status suggests an end that runs as written and is accepted", () => {
    const vault = silentSession(5 * 60, 4 * 60);
    const hint = palee(vault, ["status"]).stdout;
    const commands = quotedCommands(hint);
    expect(commands).toEqual([["end", "--at", "last"]]);
    const session = expectEnded(palee(vault, [...commands[0], "--json"]));
    expect(session.duration_minutes).toBe(60);
  });

  it("start's refusal suggests an end that runs as written and is accepted", () => {
    const vault = silentSession(5 * 60, 4 * 60);
    const refused = palee(vault, ["start", "--topic", "T-b"]);
    expectCleanError(refused, 2);
    const ends = quotedCommands(refused.stderr).filter((c) => c[0] === "end");
    expect(ends).toEqual([["end", "--at", "last"]]);
    expectEnded(palee(vault, [...ends[0], "--json"]));
  });

  it.each(["now", "last"])("end's refusal names --at %s, which is then accepted", (answer) => {
    const vault = silentSession(5 * 60, 4 * 60);
    const refused = palee(vault, ["end"]);
    expectCleanError(refused, 2);
    expect(atAnswers(refused.stderr)).toEqual(["now", "last", "HH:MM"]);
    expectEnded(palee(vault, ["end", "--at", answer, "--json"]));
  });
});

describe("a long silence whose draft is gone (240 hours, only hot.md's start)", () => {
  it("end without --at and end --at now are refused long_silence, and write nothing", () => {
    const vault = silentSession(240 * 60, "gone");
    const before = snapshot(vault, { mtimes: true });
    for (const args of [["end"], ["end", "--at", "now"]]) {
      const refused = palee(vault, [...args, "--json"]);
      expect(refused.status).toBe(2);
      expect(refused.json()).toMatchObject({ code: "long_silence" });
      expect(refused.json().message).toMatch(/draft DRAFT-S-5113ce00 is gone.*240 h ago/);
    }
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
    expect(exists(vault, "palee/index.md")).toBe(false);
  });

  it("each answer end's refusal names is accepted after the refusal: --at last records 0 min", () => {
    const vault = silentSession(240 * 60, "gone");
    const refused = palee(vault, ["end"]);
    expectCleanError(refused, 2);
    const answers = atAnswers(refused.stderr);
    expect(answers).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2}THH:MM$/), "last"]);
    expect(expectEnded(palee(vault, ["end", "--at", "last", "--json"])).duration_minutes).toBe(0);
  });

  it("the typed time it names (its start's day, HH:MM filled in) records until then", () => {
    const vault = silentSession(240 * 60, "gone");
    const refused = palee(vault, ["end"]);
    const [typed] = atAnswers(refused.stderr);
    const start = Date.now() - 240 * 60 * 60_000;
    const stop = new Date(start + 90 * 60_000).toISOString().slice(11, 16);
    const at = typed.replace("HH:MM", stop);
    expect(at.slice(0, 10)).toBe(new Date(start).toISOString().slice(0, 10));
    const session = expectEnded(palee(vault, ["end", "--at", at, "--json"]));
    expect(session.duration_minutes).toBeGreaterThanOrEqual(89);
    expect(session.duration_minutes).toBeLessThanOrEqual(90);
  });

  it("status names only ends that are accepted: --at last, not a bare end", () => {
    const vault = silentSession(240 * 60, "gone");
    const hint = palee(vault, ["status"]).stdout;
    expect(hint).toMatch(/its draft is gone/);
    const commands = quotedCommands(hint);
    expect(commands).toEqual([["end", "--at", "last"]]);
    expect(expectEnded(palee(vault, [...commands[0], "--json"])).duration_minutes).toBe(0);
  });

  it("beside an older interrupted draft of the topic: refused without writing, then --at last is accepted", () => {
    const vault = silentSession(240 * 60, "gone");
    const older = draftId("01de0001");
    writeDraft(vault, { id: older, topic: "T-a", startedAt: ago(300 * 60), lastCheckpointAt: ago(299 * 60) });
    const before = snapshot(vault, { mtimes: true });
    const refused = palee(vault, ["end", "--at", "now", "--json"]);
    expect([refused.status, refused.json().code]).toEqual([2, "long_silence"]);
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
    const ended = palee(vault, ["end", "--at", "last", "--json"]);
    expect(expectEnded(ended).duration_minutes).toBe(0);
    expect(ended.json().absorbed_drafts).toEqual([]);
    expect(exists(vault, `palee/sessions/${older}.md`)).toBe(true);
  });

  it("a short gap is no long silence: end --at now is accepted", () => {
    const vault = silentSession(30, "gone");
    expect(expectEnded(palee(vault, ["end", "--at", "now", "--json"])).duration_minutes).toBe(30);
  });
});

describe("on a terminal, end asks instead of refusing", () => {
  /** `palee session end` in this process, its stdin and stdout a terminal answering `answers`. */
  async function endOnTerminal(vault: string, answers: string): Promise<{ code: number; stderr: string }> {
    let stderr = "";
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
      stdin: Readable.from([answers]),
      env: { PALEE_CACHE_DIR: testCacheDir(), PALEE_DEVICE: DEVICE },
      cwd: vault,
      isTerminal: true,
    };
    return { code: await run(["session", "end", "--vault", vault], io), stderr };
  }

  it("with the draft: [N]ow is offered and taken", async () => {
    const vault = silentSession(5 * 60, 4 * 60);
    const asked = await endOnTerminal(vault, "n\n");
    expect(asked.stderr).toMatch(/End at \[L\]ast activity \([0-9:]+\), \[N\]ow, or \[T\]ype a time\?/);
    expect(asked.code).toBe(0);
  });

  it("with the draft gone: now is not offered, an answer n is asked again, l closes it at its start", async () => {
    const vault = silentSession(240 * 60, "gone");
    const asked = await endOnTerminal(vault, "n\nl\n");
    expect(asked.stderr).not.toMatch(/\[N\]ow/);
    expect(asked.stderr).toMatch(/Please answer l or t\./);
    expect(asked.code).toBe(0);
    expect(palee(vault, ["list", "--json"]).json()).toMatchObject({ confirmed: [{ duration_minutes: 0 }] });
  });
});
