/**
 * `palee session next`, the recall step of end and log, and the brief's review lines (contract §4c, §5 version
 * 4; acceptance examples 1, 6, 7, 14, 15 on the CLI face): built dist/cli.js in temp vaults, `--as-of` fixed,
 * once at UTC and once in India (TZ=Asia/Kolkata, +05:30).
 */
import { studyNote } from "../support/review-vault";
import type { StudyOn } from "../support/review-vault";
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  draftId,
  expectCleanError,
  makeVault,
  palee,
  readRecord,
  snapshot,
  writeDraft,
  writeFile,
  writeHot,
} from "./support";

afterEach(cleanupVaults);

function vaultWith(...sessions: StudyOn[]): string {
  const v = makeVault();
  for (const s of sessions) {
    const note = studyNote(s);
    writeFile(v, note.path, note.text);
  }
  return v;
}

const goodDays = (topic: string, days: string[], offset: string): StudyOn[] =>
  days.map((d) => ({ topic, at: `${d}T10:00`, offset }));

describe.each([
  ["UTC", "UTC", "+00:00"],
  ["Asia/Kolkata", "Asia/Kolkata", "+05:30"],
])("next at %s (acceptance example 1)", (_name, tz, offset) => {
  const example = () =>
    vaultWith(...goodDays("T-a", ["2026-08-03", "2026-08-04", "2026-08-07"], offset), {
      topic: "T-b",
      at: "2026-08-14T09:00",
      offset,
      next: "Left joins",
    });

  it("gives Q with the literal values of the contract", () => {
    const v = example();
    const doc = palee(v, ["next", "--as-of", "2026-08-14", "--json"], { tz }).json();
    expect(doc).toEqual({
      as_of: "2026-08-14",
      open: null,
      queue: [
        {
          topic_id: "T-a",
          topic_note: null,
          group: "due",
          last_reviewed: "2026-08-07",
          step: 2,
          gap_days: 7,
          due: "2026-08-14",
          overdue_days: 0,
          next_action: null,
          last_rating: null,
          week: null,
          reasons: [{ code: "due_today", text: "due today (7-day gap)" }],
        },
        {
          topic_id: "T-b",
          topic_note: null,
          group: "continue",
          last_reviewed: "2026-08-14",
          step: 0,
          gap_days: 1,
          due: "2026-08-15",
          overdue_days: null,
          next_action: "Left joins",
          last_rating: null,
          week: null,
          reasons: [{ code: "next_action", text: "next action: Left joins" }],
        },
      ],
      excluded: [],
      total: 2,
      warnings: [],
    });
  });
});

describe("next (UTC)", () => {
  const v3 = () =>
    vaultWith(...goodDays("T-a", ["2026-08-03", "2026-08-04", "2026-08-07"], "+00:00"), {
      topic: "T-b",
      at: "2026-08-10T10:00",
      rating: 4,
    });

  it("orders due topics most late first and names the first with its start command", () => {
    const v = v3();
    const doc = palee(v, ["next", "--as-of", "2026-08-17", "--json"]).json();
    const queue = doc.queue as Array<Record<string, unknown>>;
    // T-a: 3 days past a 7-day gap (10/7); T-b: easy from nothing is step 1 (gap 3), due 08-13, 4 days past (7/3).
    expect(queue.map((q) => [q.topic_id, q.group, q.overdue_days, q.step])).toEqual([
      ["T-b", "due", 4, 1],
      ["T-a", "due", 3, 2],
    ]);
    const text = palee(v, ["next", "--as-of", "2026-08-17"]);
    expect(text.status).toBe(0);
    expect(text.stdout.split("\n").slice(0, 2)).toEqual([
      "Study next: T-b — due since 2026-08-13, 4 days past a 3-day gap.",
      "Start it: palee session start --topic T-b",
    ]);
  });

  it("with nothing due still names the soonest topic", () => {
    const v = v3();
    const run = palee(v, ["next", "--as-of", "2026-08-11"]);
    expect(run.stdout.split("\n")[0]).toBe("Nothing due; next: T-b on 2026-08-13.");
  });

  it("--limit cuts the queue but not total; --all lists every entry; --topic gives the history", () => {
    const v = v3();
    const one = palee(v, ["next", "--as-of", "2026-08-17", "--limit", "1", "--json"]).json();
    expect([(one.queue as unknown[]).length, one.total]).toEqual([1, 2]);
    const all = palee(v, ["next", "--as-of", "2026-08-17", "--all", "--json"]).json();
    expect((all.queue as unknown[]).length).toBe(2);
    const topic = palee(v, ["next", "--as-of", "2026-08-17", "--topic", "T-a", "--json"]).json();
    expect(topic.history).toEqual([
      { date: "2026-08-03", rating: null, step: 0, gap_days: 1, due: "2026-08-04" },
      { date: "2026-08-04", rating: null, step: 1, gap_days: 3, due: "2026-08-07" },
      { date: "2026-08-07", rating: null, step: 2, gap_days: 7, due: "2026-08-14" },
    ]);
  });

  it("gives the same document on two runs and writes nothing (examples 9, 14)", () => {
    const v = v3();
    const before = snapshot(v);
    const a = palee(v, ["next", "--as-of", "2026-08-17", "--json"]).stdout;
    const b = palee(v, ["next", "--as-of", "2026-08-17", "--json"]).stdout;
    expect(a).toBe(b);
    expect(snapshot(v)).toEqual(before);
  });

  it("an empty vault gives an empty queue, exit 0, and creates no file (example 6)", () => {
    const v = makeVault();
    const run = palee(v, ["next", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({ queue: [], excluded: [], total: 0, warnings: [] });
    expect(snapshot(v)).toEqual({});
    expect(palee(v, ["next"]).stdout).toContain("Nothing to review yet");
  });

  it.each([["2999-01-01"], ["14/08/2026"], ["2026-13-01"], ["-1"]])("refuses --as-of %s: invalid_date", (asOf) => {
    expectCleanError(palee(makeVault(), ["next", "--as-of", asOf, "--json"]), 2, { json: true, code: "invalid_date" });
  });

  it("refuses an unknown --topic (unknown_topic) and a bad --limit (usage)", () => {
    const v = v3();
    expectCleanError(palee(v, ["next", "--topic", "T-nowhere", "--json"]), 2, { json: true, code: "unknown_topic" });
    expectCleanError(palee(v, ["next", "--limit", "0"]), 2);
  });

  it("names a close topic ID when --topic is a typo (did you mean), still unknown_topic", () => {
    const v = vaultWith({ topic: "T-rust-ownership", at: "2026-08-10T10:00", rating: 3 });
    const typo = palee(v, ["next", "--topic", "T-rust-ownersip", "--json"]);
    expectCleanError(typo, 2, { json: true, code: "unknown_topic" });
    expect(typo.json().message).toContain("did you mean T-rust-ownership?");
    const far = palee(v, ["next", "--topic", "T-chemistry"]);
    expectCleanError(far, 2);
    expect(far.stderr).not.toContain("did you mean");
  });

  it("reads recall_rating: banana as unrated, names it in warnings, never rewrites it", () => {
    const v = vaultWith({ topic: "T-a", at: "2026-08-03T10:00", rating: "banana" });
    const before = snapshot(v);
    const run = palee(v, ["next", "--as-of", "2026-08-03", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(doc.warnings).toEqual([
      expect.stringMatching(/recall_rating "banana" is not 1-4 or again, hard, good, easy/),
    ]);
    expect((doc.queue as Array<Record<string, unknown>>)[0]).toMatchObject({ last_rating: null, step: 0 });
    expect(snapshot(v)).toEqual(before);
  });
});

describe("the recall step on end and log (example 7)", () => {
  const open = () => {
    const v = makeVault();
    const id = draftId("0000abcd");
    writeDraft(v, { id, topic: "T-rust", startedAt: ago(30), lastCheckpointAt: ago(1) });
    writeHot(v, { activeTopic: "T-rust", startedAt: ago(30), openDraft: id, device: "test-device" });
    return v;
  };

  it.each([["7"], ["great"]])("end --rating %s: exit 2 invalid_rating, nothing written, still open", (rating) => {
    const v = open();
    const before = snapshot(v);
    const run = palee(v, ["end", "--rating", rating, "--json"]);
    expectCleanError(run, 2, { json: true, code: "invalid_rating" });
    expect(run.json().message).toContain("1-4 or again, hard, good, easy");
    expect(snapshot(v)).toEqual(before);
    expect(palee(v, ["status", "--json"]).json().open).toMatchObject({ topic_id: "T-rust" });
  });

  it('end --rating good --recall "borrow rules" writes recall_rating 3 and a ## Recall section', () => {
    const v = open();
    const run = palee(v, ["end", "--rating", "good", "--recall", "borrow rules", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json().session).toMatchObject({ recall_rating: 3, next_done: false });
    const note = readRecord(v, `palee/sessions/${confirmedFiles(v)[0]}`);
    expect(note.fields.recall_rating).toBe(3);
    expect(note.body).toContain("## Recall\n\nborrow rules\n");
  });

  it("--recall - reads standard input; two options reading it are refused", () => {
    const v = open();
    expectCleanError(palee(v, ["end", "--recall", "-", "--summary", "-"], { input: "x" }), 2);
    expect(palee(v, ["end", "--recall", "-", "--rating", "3"], { input: "- ownership\n" }).status).toBe(0);
    expect(readRecord(v, `palee/sessions/${confirmedFiles(v)[0]}`).body).toContain("## Recall\n\n- ownership\n");
  });

  it("log takes --recall and --rating", () => {
    const v = makeVault();
    expectCleanError(palee(v, ["log", "--topic", "T-sql", "--minutes", "20", "--rating", "great"]), 2);
    expect(snapshot(v)).toEqual({});
    const run = palee(v, ["log", "--topic", "T-sql", "--minutes", "20", "--rating", "hard", "--recall", "joins"]);
    expect(run.status).toBe(0);
    expect(readRecord(v, `palee/sessions/${confirmedFiles(v)[0]}`).fields.recall_rating).toBe(2);
  });
});

describe("the brief's review line (example 15)", () => {
  it("context --words 50 with a due topic and a recall stays within 50 words, keeping topic and next action", () => {
    // Steps 0, 1, 2 (due 08-12), then hard, early, on 08-07: step 2 again, due 08-14.
    const v = vaultWith(...goodDays("T-a", ["2026-08-01", "2026-08-02", "2026-08-05"], "+00:00"), {
      topic: "T-a",
      at: "2026-08-07T10:00",
      rating: 2,
      recall: "ownership moves values; borrowing lends them ".repeat(4),
      next: "Exercise 4.1",
      summary: "word ".repeat(60),
    });
    const run = palee(v, ["context", "--topic", "T-a", "--as-of", "2026-08-17", "--words", "50", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    const text = doc.text as string;
    expect(text.match(/\S+/g)?.length ?? 0).toBeLessThanOrEqual(50);
    expect(text).toMatch(/^# Tutor brief: T-a\n/);
    expect(text).toContain("## Next action\n\nExercise 4.1");
    expect(text).toContain("Review: due since 14 Aug, 3 days past a 7-day gap; last rating hard, 7 Aug");
    expect(doc.review).toMatchObject({ topic_id: "T-a", group: "due", overdue_days: 3, last_rating: 2 });
    expect(doc.recall).toMatchObject({ date: "2026-08-07", rating: 2 });
    const full = palee(v, ["context", "--topic", "T-a", "--as-of", "2026-08-17"]).stdout;
    expect(full).toContain("Last recall, 7 Aug (rated hard): ownership moves values");
  });
});
