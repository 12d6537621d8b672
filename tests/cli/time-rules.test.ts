/**
 * CLI end-to-end: the time rules of contract §4 against the real clock — the three tiers of `end`'s start time,
 * when a new checkpoint (`draft`) inherits hot.md's start, and what `log` (and `end --at`) accept as a time.
 */
import type { RunOptions } from "./support";
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  DEVICE,
  draftFiles,
  draftId,
  expectCleanError,
  expectNearNow,
  indexLines,
  makeVault,
  palee,
  readRecord,
  snapshot,
  trashFiles,
  utcCompact,
  writeDraft,
  writeHot,
} from "./support";

afterEach(cleanupVaults);

interface Ended {
  vault: string;
  session: Record<string, unknown>;
  fields: Record<string, unknown>;
  absorbed: unknown;
}

/** Runs end; `warning` is the one warning line expected on stderr when the start had to fall back to now. */
function end(vault: string, args: string[] = ["--topic", "T-a"], warning?: RegExp): Ended {
  const run = palee(vault, ["end", ...args, "--json"]);
  expect(run.status).toBe(0);
  if (warning) expect(run.stderr).toMatch(new RegExp(`^warning: ${warning.source}.*\n$`));
  else expect(run.stderr).toBe("");
  const doc = run.json();
  const session = doc.session as Record<string, unknown>;
  const files = confirmedFiles(vault);
  expect(files).toContain(`${String(session.session_id)}.md`);
  const fields = readRecord(vault, String(session.path)).fields;
  return { vault, session, fields, absorbed: doc.absorbed_drafts };
}

/** The confirmed note agrees with the JSON, and its ID is its started_at in UTC. */
function expectConsistent({ session, fields }: Ended, minutes: number): void {
  expect(session.duration_minutes).toBe(minutes);
  expect(fields.duration_minutes).toBe(minutes);
  expect(fields.started_at).toBe(session.started_at);
  expect(fields.ended_at).toBe(session.ended_at);
  expect(String(session.session_id)).toMatch(
    new RegExp(`^S-${utcCompact(Date.parse(String(fields.started_at)))}-[0-9a-f]{4}$`),
  );
  expectNearNow(fields.ended_at);
}

describe("end: the three tiers of the start time", () => {
  it("tier 1: a draft of the topic started 90 min ago gives 90 min, started_at from the draft", () => {
    const vault = makeVault();
    const id = draftId("90909090");
    const started = ago(90);
    writeDraft(vault, { id, topic: "T-a", startedAt: started, lastCheckpointAt: ago(5), body: "draft notes\n" });
    // hot.md points elsewhere in time: the draft wins.
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(30), openDraft: id, device: DEVICE });
    const ended = end(vault);
    expectConsistent(ended, 90);
    expect(ended.fields.started_at).toBe(started);
    expect(ended.absorbed).toEqual([id]);
    expect(ended.fields.absorbed_drafts).toEqual([id]);
    expect(draftFiles(vault)).toEqual([]);
    expect(trashFiles(vault)).toEqual([`${id}.md`]);
    expect(indexLines(vault)).toEqual([
      `- [[${String(ended.session.session_id)}]] - Topic: T-a (${started.slice(0, 10)}, 90 min)`,
    ]);
  });

  it("tier 1: with several drafts of the topic, the earliest start wins and every draft is absorbed", () => {
    const vault = makeVault();
    const a = draftId("aaaa0001");
    const b = draftId("bbbb0002");
    const earliest = ago(75);
    writeDraft(vault, { id: b, topic: "T-a", startedAt: ago(30), lastCheckpointAt: ago(20), body: "second\n" });
    writeDraft(vault, { id: a, topic: "T-a", startedAt: earliest, lastCheckpointAt: ago(40), body: "first\n" });
    const other = draftId("cccc0003");
    writeDraft(vault, { id: other, topic: "T-other", startedAt: ago(200), lastCheckpointAt: ago(100) });
    const ended = end(vault);
    expectConsistent(ended, 75);
    expect(ended.fields.started_at).toBe(earliest);
    expect([...(ended.absorbed as string[])].sort()).toEqual([a, b]);
    expect(draftFiles(vault)).toEqual([`${other}.md`]);
  });

  it("tier 2: no draft, hot.md with the matching active_topic started 40 min ago gives 40 min", () => {
    const vault = makeVault();
    const started = ago(40);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    const ended = end(vault, []);
    expectConsistent(ended, 40);
    expect(ended.fields.started_at).toBe(started);
    expect(ended.fields.topic_id).toBe("T-a");
  });

  it("tier 2 has no age limit: hot.md started 30 hours ago gives 1800 min", () => {
    const vault = makeVault();
    const started = ago(30 * 60);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    // Version 2: nothing says when it ended, so the learner says it (without --at: long_silence).
    const ended = end(vault, ["--topic", "T-a", "--at", "now"]);
    expectConsistent(ended, 1800);
    expect(ended.fields.started_at).toBe(started);
  });

  it("tier 2 ignores hot.md when its active_topic is another topic: refused nothing_open, nothing written", () => {
    const vault = makeVault();
    writeHot(vault, { activeTopic: "T-b", startedAt: ago(40) });
    const before = snapshot(vault);
    const run = palee(vault, ["end", "--topic", "T-a", "--json"]);
    expectCleanError(run, 2, { json: true, code: "nothing_open" });
    expect(snapshot(vault)).toEqual(before);
  });

  it("tier 2: hot.md started_at 30 s in the future is clamped to now: 0 min, started_at ≈ now", () => {
    const vault = makeVault();
    const future = ago(-0.5);
    writeHot(vault, { activeTopic: "T-a", startedAt: future });
    const ended = end(vault);
    expectConsistent(ended, 0);
    expectNearNow(ended.fields.started_at);
    expect(Date.parse(String(ended.fields.started_at))).toBeLessThanOrEqual(Date.parse(String(ended.fields.ended_at)));
  });

  it("tier 2: hot.md started_at 10 min in the future, and no draft: nothing studied, nothing_open (issue 35)", () => {
    const vault = makeVault();
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(-10) });
    const before = snapshot(vault);
    expectCleanError(palee(vault, ["end", "--topic", "T-a", "--json"]), 2, { json: true, code: "nothing_open" });
    expect(snapshot(vault)).toEqual(before);
  });

  it("tier 3 is refused: nothing (no draft, no hot.md) records nothing, even with --topic, and points to log", () => {
    const vault = makeVault();
    const run = palee(vault, ["end", "--topic", "T-a"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain("no open session on T-a to end; nothing was written");
    expect(run.stderr).toContain("palee session log --topic T-a");
    expect(run.stderr).not.toContain("from now");
    expect(snapshot(vault)).toEqual({});
  });
});

describe("draft (checkpoint): when a new draft inherits hot.md's start", () => {
  function checkpoint(vault: string, topic = "T-a"): Record<string, unknown> {
    const run = palee(vault, ["draft", "--topic", topic, "--json"]);
    // Nothing on stderr but, for a topic seen for the first time, the new-topic notice (contract §4).
    expect({ status: run.status, stderr: run.stderr.replace(`new topic ${topic}\n`, "") }).toEqual({
      status: 0,
      stderr: "",
    });
    const doc = run.json();
    expect(doc.status).toBe("checkpointed");
    expect(doc.created).toBe(true);
    const draft = doc.draft as Record<string, unknown>;
    expect(draftFiles(vault)).toEqual([`${String(draft.draft_id)}.md`]);
    const fields = readRecord(vault, String(draft.path)).fields;
    expect(fields.started_at).toBe(draft.started_at);
    expect(fields.device).toBe(DEVICE);
    expectNearNow(fields.last_checkpoint_at);
    return fields;
  }

  it("inherits hot.md's started_at when active_topic matches and it is 2 h old", () => {
    const vault = makeVault();
    const started = ago(120);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    expect(checkpoint(vault).started_at).toBe(started);
  });

  it("uses now when hot.md's started_at is 25 h old", () => {
    const vault = makeVault();
    const started = ago(25 * 60);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    const fields = checkpoint(vault);
    expect(fields.started_at).not.toBe(started);
    expectNearNow(fields.started_at);
  });

  it("uses now when hot.md's started_at is 5 min in the future", () => {
    const vault = makeVault();
    const started = ago(-5);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    const fields = checkpoint(vault);
    expect(fields.started_at).not.toBe(started);
    expectNearNow(fields.started_at);
    expect(Date.parse(String(fields.started_at))).toBeLessThanOrEqual(Date.now());
  });

  it("uses now when hot.md's active_topic is a different topic", () => {
    const vault = makeVault();
    const started = ago(120);
    writeHot(vault, { activeTopic: "T-b", startedAt: started });
    const fields = checkpoint(vault, "T-a");
    expect(fields.topic_id).toBe("T-a");
    expect(fields.started_at).not.toBe(started);
    expectNearNow(fields.started_at);
  });

  it("a checkpoint of the open session updates its draft in place, keeping the learner's body byte for byte", () => {
    const vault = makeVault();
    const id = draftId("0badcafe");
    const started = ago(50);
    const body = "My own notes,\n  with *formatting*\n\nand a blank line.\n";
    writeDraft(vault, { id, topic: "T-a", startedAt: started, lastCheckpointAt: ago(45), body });
    writeHot(vault, { activeTopic: "T-a", startedAt: started, openDraft: id, device: DEVICE });
    const run = palee(vault, ["draft", "--note", "appended", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({
      status: "checkpointed",
      created: false,
      draft: { draft_id: id, started_at: started },
    });
    expect(draftFiles(vault)).toEqual([`${id}.md`]);
    const { fields, body: after } = readRecord(vault, `palee/sessions/${id}.md`);
    expect(fields.started_at).toBe(started);
    expectNearNow(fields.last_checkpoint_at);
    expect(after.startsWith(body)).toBe(true);
    expect(after.slice(body.length).trim()).toMatch(/^- \d\d:\d\d appended$/); // timed (contract §4 checkpoint)
  });
});

// ---- log (contract §4 log, version 3) ----------------------------------------------------------------------

/** A refusal: exit 2 with `code` in JSON, one clean line on stderr, and the vault byte for byte unchanged. */
function refused(vault: string, args: string[], code: string, options: RunOptions = {}): string {
  const before = snapshot(vault, { mtimes: true });
  const text = palee(vault, args, options);
  expectCleanError(text, 2);
  const json = palee(vault, [...args, "--json"], options);
  expect(json.status).toBe(2);
  expect(json.json()).toMatchObject({ status: "error", code, exit_code: 2 });
  expect(snapshot(vault, { mtimes: true })).toEqual(before);
  return text.stderr;
}

/** Logs on T-a and gives the JSON document. */
function logged(vault: string, args: string[], options: RunOptions = {}): Record<string, unknown> {
  const run = palee(vault, ["log", "--topic", "T-a", ...args, "--json"], options);
  // Nothing on stderr but, for the first session on T-a, the new-topic notice (contract §4).
  expect({ status: run.status, stderr: run.stderr.replace("new topic T-a\n", "") }).toEqual({ status: 0, stderr: "" });
  return run.json();
}

const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 16);

describe("log: what a learner means", () => {
  it("refuses --from 07:00 --to 06:30 (no 23.5-hour session) and takes --from 23:30 --to 00:30 as one hour", () => {
    const vault = makeVault();
    const stderr = refused(vault, ["log", "--topic", "T-a", "--from", "07:00", "--to", "06:30"], "invalid_time");
    expect(stderr).toMatch(/--from 07:00 starts after it ends \(--to .*06:30\).*at most 12 h/);
    const doc = logged(vault, ["--from", "23:30", "--to", "00:30"]);
    expect(doc.session).toMatchObject({ duration_minutes: 60, outcome: "logged" });
    const session = doc.session as { started_at: string; ended_at: string };
    expect([session.started_at.slice(11, 16), session.ended_at.slice(11, 16)]).toEqual(["23:30", "00:30"]);
    expect(String(doc.when)).toMatch(/^(yesterday|\d{4}-\d{2}-\d{2}) 23:30–(today|yesterday) 00:30$/);
  });

  it("refuses a span of five days and a 1999 date, and --minutes outside 1 to 1440", () => {
    const vault = makeVault();
    const days = ["--from", "2026-01-05T09:00", "--to", "2026-01-10T08:00"];
    expect(refused(vault, ["log", "--topic", "T-a", ...days], "invalid_time")).toMatch(/lasts 119 h: .*1 to 1440/);
    const old = ["--from", "1999-05-01T10:00", "--to", "1999-05-01T11:00"];
    expect(refused(vault, ["log", "--topic", "T-a", ...old], "invalid_time")).toMatch(/is before 2000/);
    refused(vault, ["log", "--topic", "T-a", "--minutes", "1441"], "invalid_time");
    refused(vault, ["log", "--topic", "T-a", "--minutes", "0"], "invalid_time");
    expect(confirmedFiles(vault)).toEqual([]);
    expect(logged(vault, ["--minutes", "1440"]).session).toMatchObject({ duration_minutes: 1440 });
  });

  it("refuses a local time the clocks skipped (Berlin, 2026-03-29 02:30), naming the ISO forms to use", () => {
    const vault = makeVault();
    const args = ["log", "--topic", "T-a", "--from", "2026-03-29T02:30", "--to", "2026-03-29T03:30"];
    const stderr = refused(vault, args, "invalid_time", { tz: "Europe/Berlin" });
    expect(stderr).toMatch(/"2026-03-29T02:30" does not exist on 2026-03-29 here: the clocks went from 02:00 to 03:00/);
    expect(stderr).toMatch(/2026-03-29T01:30:00\+01:00 or 2026-03-29T03:30:00\+02:00/);
    // The form it names is taken: 03:30 CEST to 04:30 CEST is one hour.
    const doc = logged(vault, ["--from", "2026-03-29T03:30:00+02:00", "--to", "2026-03-29T04:30"], {
      tz: "Europe/Berlin",
    });
    expect(doc.session).toMatchObject({ duration_minutes: 60, started_at: "2026-03-29T03:30:00+02:00" });
  });

  it("takes the later of a local time that happened twice (Berlin, 2026-10-25 02:30)", () => {
    const vault = makeVault();
    const doc = logged(vault, ["--from", "2026-10-25T02:30", "--to", "2026-10-25T03:00"], { tz: "Europe/Berlin" });
    expect(doc.session).toMatchObject({ duration_minutes: 30, started_at: "2026-10-25T02:30:00+01:00" });
  });

  it("names the day of an HH:MM that was not today", () => {
    const vault = makeVault();
    const now = Date.now();
    const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10);
    const iso = logged(vault, ["--from", "11:00", "--to", `${yesterday}T13:00`]);
    expect(iso.when).toBe("yesterday 11:00–13:00");
    const text = palee(vault, ["log", "--topic", "T-a", "--minutes", "10", "--to", `${yesterday}T15:00`]);
    expect(text.stdout).toBe(
      `Logged ${String(/S-\S+(?=:)/.exec(text.stdout)?.[0])}: T-a, 10 min, yesterday 14:50–15:00.\n`,
    );
    // Two HH:MM later today than now are yesterday's (skipped late in the day, when they would be today's).
    const hour = new Date(now).getUTCHours();
    if (hour < 21) {
      const from = hhmm(now + 90 * 60_000).slice(0, 3) + "00";
      const to = hhmm(now + 90 * 60_000).slice(0, 3) + "40";
      expect(logged(makeVault(), ["--from", from, "--to", to]).when).toBe(`yesterday ${from}–${to}`);
    }
  });
});

describe("end --at: the same rule for a skipped local time", () => {
  it("refuses an --at the clocks skipped (Berlin, 2026-03-29 02:30) and writes nothing", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"], { tz: "Europe/Berlin" }).status).toBe(0);
    const stderr = refused(vault, ["end", "--at", "2026-03-29T02:30"], "invalid_time", { tz: "Europe/Berlin" });
    expect(stderr).toMatch(/"2026-03-29T02:30" does not exist on 2026-03-29 here/);
    expect(draftFiles(vault)).toHaveLength(1);
    expect(confirmedFiles(vault)).toEqual([]);
  });
});
