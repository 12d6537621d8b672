/**
 * `context`, `show`, `latest` and `list --json`'s summaries (contract §4b, §5 version 3): read-only actions that
 * write nothing, take no lock, and refuse bad input with one clear line and exit 2.
 */
import {
  ago,
  cleanupVaults,
  draftId,
  expectCleanError,
  makeVault,
  palee,
  snapshot,
  writeConfirmed,
  writeDraft,
  writeFile,
  writeHot,
} from "./support";

afterEach(cleanupVaults);

const RUST_OLD = "S-20260812T100000-aaaa";
const SQL = "S-20260813T100000-bbbb";
const RUST_NEW = "S-20260814T100000-cccc";
const OPEN = draftId("0000abcd");

function vault(): string {
  const v = makeVault();
  const at = (day: string, h: string) => `${day}T${h}:00+00:00`;
  writeConfirmed(v, {
    id: RUST_OLD,
    topic: "T-rust",
    startedAt: at("2026-08-12", "10:00"),
    endedAt: at("2026-08-12", "10:45"),
    duration: 45,
    summary: "Ownership moves",
    next: "Exercise 4.1",
    notes: "- old notes",
  });
  writeConfirmed(v, {
    id: SQL,
    topic: "T-sql",
    startedAt: at("2026-08-13", "10:00"),
    endedAt: at("2026-08-13", "10:30"),
    duration: 30,
    summary: "SQL joins",
    next: "Left joins",
  });
  writeConfirmed(v, {
    id: RUST_NEW,
    topic: "T-rust",
    startedAt: at("2026-08-14", "10:00"),
    endedAt: at("2026-08-14", "10:20"),
    duration: 20,
    summary: "Borrowing \u001b[31mred\u001b[0m",
  });
  writeDraft(v, { id: OPEN, topic: "T-rust", startedAt: ago(30), lastCheckpointAt: ago(1), body: "- open notes\n" });
  writeHot(v, { activeTopic: "T-rust", startedAt: ago(30), openDraft: OPEN, device: "test-device" });
  return v;
}

describe("palee session context", () => {
  it("prints the active topic's brief, writes nothing, and never lets a note's escape reach the terminal", () => {
    const v = vault();
    const before = snapshot(v, { mtimes: true });
    const r = palee(v, ["context"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^# Tutor brief: T-rust\n/);
    expect(r.stdout).toContain("2 sessions, 1 h 5 min studied, from 2026-08-12 to 2026-08-14.");
    expect(r.stdout).toContain("- open notes");
    expect(r.stdout).toContain("## Next action (from 2026-08-12)\n\nExercise 4.1");
    expect(r.stdout).not.toMatch(/SQL|Left joins/);
    expect(r.stdout).not.toContain("\u001b");
    expect(snapshot(v, { mtimes: true })).toEqual(before);
  });

  it("gives the JSON document of contract §4b, and honours --words exactly", () => {
    const v = vault();
    const doc = palee(v, ["context", "--topic", "T-rust", "--json"]).json();
    expect(Object.keys(doc).sort()).toEqual(
      [
        "next_action",
        "open",
        "sessions",
        "text",
        "topic_id",
        "topic_note",
        "totals",
        // version 4 (contract §5): the review entry, the week, the newest recall, warnings
        "review",
        "week",
        "recall",
        "warnings",
      ].sort(),
    );
    expect(doc).toMatchObject({
      topic_id: "T-rust",
      topic_note: null,
      totals: { sessions: 2, minutes: 65, first: "2026-08-12", last: "2026-08-14" },
      open: { draft_id: OPEN },
      next_action: "Exercise 4.1",
    });
    const sessions = doc.sessions as Array<Record<string, unknown>>;
    expect(sessions.map((s) => [s.session_id, s.summary, s.next_action])).toEqual([
      [RUST_NEW, "Borrowing \u001b[31mred\u001b[0m", null],
      [RUST_OLD, "Ownership moves", "Exercise 4.1"],
    ]);
    const text = palee(v, ["context", "--words", "50"]).stdout;
    expect(text.match(/\S+/g)?.length ?? 0).toBeLessThanOrEqual(50);
  });

  it.each(["0", "-5", "abc", "49", "5001", "1.5", ""])("refuses --words %p with one line and exit 2", (words) => {
    const v = vault();
    expectCleanError(palee(v, ["context", "--words", words, "--json"]), 2, { json: true, code: "usage" });
    expect(palee(v, ["context", "--words", words]).stderr).toMatch(/--words must be a whole number from 50 to 5000/);
  });

  it.each([
    ["a link", "[[Rust]]"],
    ["a pipe", "a|b"],
    ["a line break", "T-x\ny"],
    ["10 000 characters", "T-" + "x".repeat(10_000)],
  ])("refuses a topic with %s", (_what, topic) => {
    expectCleanError(palee(vault(), ["context", "--topic", topic, "--json"]), 2, { json: true });
  });

  it("says clearly when there is nothing to brief", () => {
    const r = palee(makeVault(), ["context"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/nothing to brief/);
  });
});

describe("palee session show and latest", () => {
  it("shows a confirmed session whole, in text and JSON", () => {
    const v = vault();
    const text = palee(v, ["show", "--id", RUST_OLD]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`Session ${RUST_OLD}\nTopic: T-rust\n`);
    expect(text.stdout).toContain(
      "## Summary\n\nOwnership moves\n\n## Next action\n\nExercise 4.1\n\n## Notes\n\n- old notes",
    );
    const doc = palee(v, ["show", "--id", RUST_OLD, "--json"]).json();
    expect(doc).toEqual({
      session: expect.objectContaining({
        session_id: RUST_OLD,
        topic_id: "T-rust",
        duration_minutes: 45,
        summary: "Ownership moves",
        next_action: "Exercise 4.1",
        notes: "- old notes",
      }) as unknown,
    });
  });

  it("shows a draft with its notes", () => {
    const doc = palee(vault(), ["show", "--id", OPEN, "--json"]).json();
    expect(doc).toEqual({ draft: expect.objectContaining({ draft_id: OPEN, notes: "- open notes" }) as unknown });
  });

  it.each(["../../etc/passwd", "S-20990101T000000-ffff", "DRAFT-S-ffffffff", "S-1", "palee/hot"])(
    "refuses --id %p as no_such_session, exit 2",
    (id) => {
      expectCleanError(palee(vault(), ["show", "--id", id, "--json"]), 2, { json: true, code: "no_such_session" });
    },
  );

  it("refuses show without --id", () => {
    expectCleanError(palee(vault(), ["show"]), 2);
  });

  it("latest: the newest session, of a topic when given; none is an answer, exit 0", () => {
    const v = vault();
    const any = palee(v, ["latest", "--json"]).json() as { session: Record<string, unknown> };
    expect(any.session.session_id).toBe(RUST_NEW);
    const sql = palee(v, ["latest", "--topic", "T-sql"]);
    expect(sql.stdout).toContain(`Session ${SQL}`);
    expect(sql.stdout).toContain("## Next action\n\nLeft joins");
    const none = palee(v, ["latest", "--topic", "T-none", "--json"]);
    expect({ status: none.status, doc: none.json() }).toEqual({ status: 0, doc: { session: null } });
    expect(palee(v, ["latest", "--topic", "T-none"]).stdout).toBe("No confirmed session on T-none yet.\n");
  });
});

describe("palee session list --json", () => {
  it("gives each listed session its summary and next action", () => {
    const doc = palee(vault(), ["list", "--json"]).json() as { confirmed: Array<Record<string, unknown>> };
    expect(doc.confirmed.map((s) => [s.session_id, s.summary, s.next_action])).toEqual([
      [RUST_NEW, "Borrowing \u001b[31mred\u001b[0m", null],
      [SQL, "SQL joins", "Left joins"],
      [RUST_OLD, "Ownership moves", "Exercise 4.1"],
    ]);
  });

  it("reads them through a trusted index.md too (the bounded list)", () => {
    const v = vault();
    expect(palee(v, ["rebuild"]).status).toBe(0);
    writeFile(v, "palee/sessions/.ignored", "");
    const doc = palee(v, ["list", "--json"]).json() as { confirmed: Array<Record<string, unknown>> };
    expect(doc.confirmed[2]).toMatchObject({ session_id: RUST_OLD, summary: "Ownership moves" });
  });
});
