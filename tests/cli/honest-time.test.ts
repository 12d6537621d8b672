/**
 * Honest time on the command line (contract §4, §5 version 2; issue 11): pause, continue, end --at, log, and every
 * refusal of the "Bad input" section — exit 2, one line, nothing written, never a negative duration.
 */
import type { RunResult } from "./support";
import {
  DEVICE,
  ago,
  cleanupVaults,
  confirmedFiles,
  draftId,
  draftText,
  expectCleanError,
  iso,
  makeVault,
  MINUTE,
  palee,
  readRecord,
  snapshot,
  writeFile,
  writeHot,
} from "./support";

afterEach(cleanupVaults);

const ID = draftId("11aa11aa");

/** A vault whose open session (this device's) started and was last checkpointed the given minutes ago. */
function openSession(startedAgo: number, checkpointAgo: number, extra = ""): string {
  const vault = makeVault();
  const startedAt = ago(startedAgo);
  const text = draftText({ id: ID, topic: "T-a", startedAt, lastCheckpointAt: ago(checkpointAgo), device: DEVICE });
  writeFile(vault, `palee/sessions/${ID}.md`, text.replace(/\n---\n$/, `\n${extra}---\n`));
  writeHot(vault, { activeTopic: "T-a", startedAt, openDraft: ID, device: DEVICE });
  return vault;
}

/** A refusal: exit 2, one clean line (and the JSON error document), and the vault byte for byte unchanged. */
function expectRefusal(vault: string, args: string[], code: string): RunResult {
  const before = snapshot(vault, { mtimes: true });
  const text = palee(vault, args);
  expectCleanError(text, 2);
  const json = palee(vault, [...args, "--json"]);
  expect(json.status).toBe(2);
  expect(json.json()).toMatchObject({ status: "error", code, exit_code: 2 });
  expect(snapshot(vault, { mtimes: true })).toEqual(before);
  return text;
}

describe("pause and continue", () => {
  it("pause, continue and end: the pause is a break, not study time", () => {
    const vault = openSession(30, 1);
    const paused = palee(vault, ["pause", "--json"]);
    expect(paused.status).toBe(0);
    expect(paused.json()).toMatchObject({ status: "paused", draft_id: ID });
    const status = palee(vault, ["status", "--json"]).json().open as Record<string, unknown>;
    expect(status).toMatchObject({ paused_at: (paused.json() as { paused_at: string }).paused_at, break_minutes: 0 });
    expect(palee(vault, ["status"]).stdout).toMatch(/^Paused since /m);
    const continued = palee(vault, ["continue", "--json"]);
    expect(continued.json()).toMatchObject({ status: "continued", draft_id: ID, break_minutes: 0 });
    const ended = palee(vault, ["end", "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.json()).toMatchObject({ session: { duration_minutes: 30, break_minutes: 0 } });
  });

  it("refuses pause with nothing open, pause when paused, continue when not paused", () => {
    expectRefusal(makeVault(), ["pause"], "nothing_open");
    expectRefusal(makeVault(), ["continue"], "nothing_open");
    expectRefusal(openSession(30, 1), ["continue"], "not_paused");
    expectRefusal(openSession(30, 1, `paused_at: "${ago(5)}"\n`), ["pause"], "already_paused");
  });
});

describe("end --at", () => {
  it("refuses a long silence, naming both durations and the three answers; JSON carries them", () => {
    const vault = openSession(13 * 60, 12 * 60 + 30);
    const text = expectRefusal(vault, ["end", "--summary", "x"], "long_silence");
    expect(text.stderr).toMatch(/12 h 30 min ago.*13 h ago.*--at now, --at last or --at HH:MM/);
    const json = palee(vault, ["end", "--json"]).json();
    expect([typeof json.silence_seconds, typeof json.session_seconds, typeof json.last_activity_at]).toEqual([
      "number",
      "number",
      "string",
    ]);
  });

  it("--at last ends at the last checkpoint; the duration is the studied time", () => {
    const vault = openSession(13 * 60, 12 * 60 + 30);
    const ended = palee(vault, ["end", "--at", "last", "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.json()).toMatchObject({ session: { duration_minutes: 30 } });
  });

  it("a paused session ends at paused_at without asking, also after a long silence", () => {
    const vault = openSession(13 * 60, 13 * 60, `paused_at: "${ago(12 * 60 + 20)}"\n`);
    const ended = palee(vault, ["end", "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.json()).toMatchObject({ session: { duration_minutes: 40 } });
  });

  it.each([["25:99"], ["yesterday"], [ago(24 * 60)], [ago(-120)]])("refuses --at %s (invalid_time)", (at) => {
    expectRefusal(openSession(60, 1), ["end", "--at", at], "invalid_time");
  });
});

describe("log", () => {
  it("logs a past session with --from/--to and with --minutes", () => {
    const vault = makeVault();
    const logged = palee(vault, [
      "log",
      "--topic",
      "T-a",
      "--from",
      ago(300),
      "--to",
      ago(255),
      "--summary",
      "- read",
      "--json",
    ]);
    expect(logged.status).toBe(0);
    expect(logged.json()).toMatchObject({
      status: "logged",
      session: { duration_minutes: 45, outcome: "logged", break_minutes: 0 },
    });
    const path = String((logged.json().session as { path: string }).path);
    expect(readRecord(vault, path).fields).toMatchObject({ outcome: "logged", absorbed_drafts: [] });
    const minutes = palee(vault, ["log", "--topic", "T-b", "--minutes", "20"]);
    expect(minutes.status).toBe(0);
    expect(minutes.stdout).toMatch(/^Logged S-.*: T-b, 20 min/);
    expect(confirmedFiles(vault)).toHaveLength(2);
  });

  it.each([
    ["--from after --to", ["--from", ago(30), "--to", ago(60)], "invalid_time"],
    ["--minutes -5", ["--minutes", "-5"], "usage"],
    ["--minutes abc", ["--minutes", "abc"], "usage"],
    ["an end in the future", ["--from", ago(30), "--to", ago(-60)], "invalid_time"],
    ["a --from that is no time", ["--from", "25:99", "--to", ago(10)], "invalid_time"],
    ["neither --from nor --minutes", [], "usage"],
  ])("refuses %s", (_why, args, code) => {
    expectRefusal(makeVault(), ["log", "--topic", "T-a", ...args], code);
  });

  it("refuses an overlap with a confirmed session and with the open session; a retry counts nothing twice", () => {
    const vault = makeVault();
    expect(palee(vault, ["log", "--topic", "T-a", "--from", ago(120), "--to", ago(60)]).status).toBe(0);
    expectRefusal(vault, ["log", "--topic", "T-a", "--from", ago(120), "--to", ago(60)], "overlap");
    const open = openSession(30, 1);
    expectRefusal(open, ["log", "--topic", "T-b", "--minutes", "10"], "overlap");
  });
});

describe("damaged drafts", () => {
  it.each([
    ["a garbage paused_at", "paused_at: soon\n", /paused_at "soon"/],
    ["a paused_at in the future", `paused_at: "${ago(-600)}"\n`, /is in the future/],
    ["a negative break_minutes", "break_minutes: -5\n", /break_minutes -5/],
    ["a non-numeric break_minutes", "break_minutes: ten\n", /break_minutes "ten"/],
  ])("%s is reported and read as absent: never a crash, never a negative duration", (_why, extra, warning) => {
    const vault = openSession(40, 1, extra);
    const list = palee(vault, ["list"]);
    expect(list.status).toBe(0);
    expect(list.stderr).toMatch(warning);
    const ended = palee(vault, ["end", "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.json()).toMatchObject({ session: { duration_minutes: 40, break_minutes: 0 } });
  });
});

describe("breaks as intervals (version 3)", () => {
  /** The open session with these recorded times (one clock reading, so that --at can name them exactly). */
  function sessionAt(startedAt: string, lastCheckpointAt: string, extra = ""): string {
    const vault = makeVault();
    const text = draftText({ id: ID, topic: "T-a", startedAt, lastCheckpointAt });
    writeFile(vault, `palee/sessions/${ID}.md`, text.replace(/\n---\n$/, `\n${extra}---\n`));
    writeHot(vault, { activeTopic: "T-a", startedAt, openDraft: ID, device: DEVICE });
    return vault;
  }

  it("a night away after the chosen end takes nothing from it: 22:00–23:30, asleep until 07:05, 90 min", () => {
    const now = Date.now();
    const [at2200, at2330] = [iso(now - 545 * MINUTE), iso(now - 455 * MINUTE)]; // now is "07:05"
    const vault = sessionAt(at2200, at2330);
    const checkpoint = palee(vault, ["draft"]);
    expect(checkpoint.status).toBe(0);
    expect(checkpoint.stderr).toMatch(/^Away \d\d:\d\d–\d\d:\d\d, not counted \(7 h 35 min recorded as a break\)\.$/m);
    const ended = palee(vault, ["end", "--at", at2330, "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.json()).toMatchObject({ session: { duration_minutes: 90, break_minutes: 0 } });
    const note = readRecord(vault, String((ended.json().session as { path: string }).path)).fields;
    expect(note).toMatchObject({ duration_minutes: 90 });
    expect(note).not.toHaveProperty("breaks");
  });

  it("away 23:10–07:05 and ended at 23:30: only its 20 minutes before 23:30 count as a break, 70 min", () => {
    const now = Date.now();
    const [at2200, at2310, at2330] = [545, 475, 455].map((m) => iso(now - m * MINUTE));
    const vault = sessionAt(at2200, at2310);
    expect(palee(vault, ["draft"]).status).toBe(0);
    const ended = palee(vault, ["end", "--at", at2330, "--json"]);
    expect(ended.json()).toMatchObject({
      session: { duration_minutes: 70, break_minutes: 20, breaks: [`${at2310}/${at2330}`] },
    });
  });

  it("pause 18:30, continue 19:30, ended at 18:40: 30 min, the pause up to 18:40 a break", () => {
    const now = Date.now();
    const [at1800, at1830, at1840] = [90, 60, 50].map((m) => iso(now - m * MINUTE)); // now is "19:30"
    const vault = sessionAt(at1800, at1830, `paused_at: "${at1830}"\n`);
    const continued = palee(vault, ["continue", "--json"]);
    expect(continued.json()).toMatchObject({ status: "continued", break_minutes: 60 });
    const draft = readRecord(vault, `palee/sessions/${ID}.md`).fields;
    expect(draft).toMatchObject({ break_minutes: 60, breaks: [expect.stringMatching(/^.+\/.+$/)] });
    const ended = palee(vault, ["end", "--at", at1840, "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.json()).toMatchObject({ session: { duration_minutes: 30, break_minutes: 10 } });
  });

  it("reads a draft of before version 3 as one break ending at its last checkpoint", () => {
    const now = Date.now();
    const [started, checkpoint, end] = [120, 10, 30].map((m) => iso(now - m * MINUTE));
    const vault = sessionAt(started, checkpoint, "break_minutes: 45\n"); // the break: 55 to 10 minutes ago
    const ended = palee(vault, ["end", "--at", end, "--json"]);
    expect(ended.json()).toMatchObject({ session: { duration_minutes: 65, break_minutes: 25 } });
  });

  it("names damaged breaks and still ends the session", () => {
    const vault = openSession(40, 1, 'breaks:\n  - "soon/later"\n');
    const ended = palee(vault, ["end", "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.stderr).toMatch(/breaks item "soon\/later" is not "<from>\/<to>" \(two ISO 8601 times\); left out/);
    expect(ended.json()).toMatchObject({ session: { duration_minutes: 40, break_minutes: 0 } });
  });
});

describe("a clock that was ahead", () => {
  it("a break recorded a day ahead ends at the next checkpoint after the clock was corrected", () => {
    // Checkpoint 35 min ago, then one by a clock a day ahead (away until tomorrow), then one 20 min ago.
    const extra = `breaks:\n  - "${ago(35)}/${ago(-1410)}"\nbreak_minutes: 1445\n`;
    const vault = openSession(60, 20, extra);
    const ended = palee(vault, ["end", "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.stderr).toMatch(/reaches past the session's last sign of life .*a clock that was ahead/);
    expect(ended.json()).toMatchObject({ session: { duration_minutes: 45, break_minutes: 15 } });
  });

  it("saving a draft whose last checkpoint is 30 days ahead ends it at most now, and says so", () => {
    const vault = makeVault();
    writeFile(
      vault,
      `palee/sessions/${ID}.md`,
      draftText({ id: ID, topic: "T-a", startedAt: ago(60), lastCheckpointAt: ago(-30 * 24 * 60), device: DEVICE }),
    );
    const saved = palee(vault, ["recover", "--draft", ID, "--action", "save", "--json"]);
    expect(saved.status).toBe(0);
    const session = saved.json().session as { ended_at: string; duration_minutes: number };
    expect(Date.parse(session.ended_at)).toBeLessThanOrEqual(Date.now());
    expect(session.duration_minutes).toBe(0);
    expect(saved.stderr).toMatch(/last_checkpoint_at .* is in the future \(a clock that was ahead\)/);
  });
});

describe("recover resume", () => {
  it('announces the time away it records with the same "Away … not counted" line as draft, and away in JSON', () => {
    const lastCheckpointAt = ago(180);
    const interrupted = (): string => {
      const vault = makeVault();
      const text = draftText({ id: ID, topic: "T-a", startedAt: ago(200), lastCheckpointAt, device: DEVICE });
      writeFile(vault, `palee/sessions/${ID}.md`, text);
      return vault;
    };
    const text = palee(interrupted(), ["recover", "--draft", ID, "--action", "resume"]);
    expect(text.status).toBe(0);
    expect(text.stderr).toMatch(/^Away \d\d:\d\d–\d\d:\d\d, not counted \(3 h recorded as a break\)\.$/m);
    const json = palee(interrupted(), ["recover", "--draft", ID, "--action", "resume", "--json"]);
    const doc = json.json();
    expect(doc).toMatchObject({ status: "resumed", draft_id: ID, away: { from: lastCheckpointAt, minutes: 180 } });
    expect(Date.parse(String((doc.away as { to: string }).to))).toBeLessThanOrEqual(Date.now());
  });
});
