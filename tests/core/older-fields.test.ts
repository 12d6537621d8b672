/**
 * The older notes' records kept by name (core/device-memory/older-fields.ts, cli/device-memory/older-file.ts):
 * a kept record is what reading the note gives, warnings included, in any time zone; a record that depends on the
 * zone is never kept; a file is made only of one call's reads of every older note, or a kept one less the names
 * gone; the file reads back as it was written and trusts nothing damaged or forged.
 */
import fc from "fast-check";
import { createHash } from "node:crypto";
import { KEPT_SPAN_MS } from "../../src/core/device-memory/kept-fields";
import { sessionOf } from "../../src/core/device-memory/kept-fields";
import { OlderFields, SECTIONS, keptNoteOf, keptOf } from "../../src/core/device-memory/older-fields";
import type { OlderNote } from "../../src/core/device-memory/older-fields";
import type { ConfirmedSession } from "../../src/core/records/records";
import { plainSection } from "../../src/core/records/brief";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { interpretConfirmed } from "../../src/core/records/records";
import { formatUtcCompact } from "../../src/core/time";
import { FORMAT } from "../../src/cli/device-memory/envelope";
import type { MemoryOwner } from "../../src/cli/device-memory/envelope";
import { parseOlderFields, renderOlderFields } from "../../src/cli/device-memory/older-file";

const FOLDER = "palee/sessions";
const NOW = Date.parse("2026-12-02T04:00:00Z");
const DAY = 24 * 3_600_000;
const OWNER: MemoryOwner = { tool: "test", vault: "/vault", folder: FOLDER };
const nameAt = (at: number, tail: string) => `S-${formatUtcCompact(at)}-${tail}.md`;
/** The frontmatter lines after topic_id of a plain completed 45-minute session. */
const COMPLETED_45 = [
  "started_at: 2026-08-13T10:00:00+02:00",
  "ended_at: 2026-08-13T10:45:00+02:00",
  "duration_minutes: 45",
  "status: completed",
  "outcome: completed",
  "absorbed_drafts: []",
];

/** A note's frontmatter lines and body, from the values a hand or another tool may leave. */
const noteText = fc
  .record({
    id: fc.constantFrom("same", "other", "missing", "number"),
    zone: fc.constantFrom("+02:00", "Z", "-05:30", ""),
    endZone: fc.constantFrom("+02:00", "Z", ""),
    duration: fc.constantFrom("45", "-3", "", "x", "2.5"),
    breakMinutes: fc.constantFrom(null, "5", "banana", "-1"),
    breaks: fc.constantFrom(null, '["2026-08-13T10:10:00+02:00/2026-08-13T10:20:00+02:00"]', '["garbage"]'),
    rating: fc.constantFrom(null, "1", "4", "banana", "7", "good", "null"),
    nextDone: fc.constantFrom(null, "true", "false", '"TRUE"'),
    topicNote: fc.constantFrom(null, '"[[Rust]]"', '""'),
    agent: fc.constantFrom(null, "claude", '" "'),
    absorbed: fc.constantFrom("[]", '["DRAFT-S-0000abcd"]', "DRAFT-S-0000beef", "[1, 2]"),
    status: fc.constantFrom("completed", "draft", null),
    extra: fc.boolean(),
    next: fc.constantFrom(null, "Redo exercise 4.", "  "),
    recall: fc.constantFrom(null, "Ownership moves.", "\\# not a heading"),
    // How a hand writes the headings: any case, spaces around (sections are found so), or one space too many.
    heading: fc.constantFrom(
      (h: string) => `## ${h}`,
      (h: string) => ` ## ${h.toUpperCase()} `,
      (h: string) => `##  ${h}`,
    ),
  })
  .map((n) => {
    const lines = ["palee_schema: 1"];
    if (n.id === "same") lines.push("session_id: S-20260813T080000-ab12");
    if (n.id === "other") lines.push("session_id: S-elsewhere");
    if (n.id === "number") lines.push("session_id: 7");
    lines.push("topic_id: T-rust-ownership", `started_at: 2026-08-13T10:00:00${n.zone}`);
    lines.push(`ended_at: 2026-08-13T10:45:00${n.endZone}`);
    if (n.duration !== "") lines.push(`duration_minutes: ${n.duration}`);
    if (n.breakMinutes !== null) lines.push(`break_minutes: ${n.breakMinutes}`);
    if (n.breaks !== null) lines.push(`breaks: ${n.breaks}`);
    if (n.status !== null) lines.push(`status: ${n.status}`);
    lines.push("outcome: completed", `absorbed_drafts: ${n.absorbed}`);
    if (n.topicNote !== null) lines.push(`topic_note: ${n.topicNote}`);
    if (n.agent !== null) lines.push(`agent: ${n.agent}`);
    if (n.rating !== null) lines.push(`recall_rating: ${n.rating}`);
    if (n.nextDone !== null) lines.push(`next_done: ${n.nextDone}`);
    if (n.extra) lines.push("mood: fine", "tags: [a, b]");
    const body = [
      "# Session\n",
      n.recall === null ? "" : `\n${n.heading("Recall")}\n\n${n.recall}\n`,
      n.next === null ? "" : `\n${n.heading("next action")}\n\n${n.next}\n`,
    ].join("");
    return `---\n${lines.join("\n")}\n---\n${body}`;
  });

const PATH = `${FOLDER}/S-20260813T080000-ab12.md`;
const offsets = [(): number => 0, (): number => 120, (at: number): number => (at % 2 === 0 ? -300 : 330)];

describe("a kept record", () => {
  it("is what reading the note gives in every time zone, warnings included; else the note is not kept", () => {
    const seen = { kept: 0, warned: 0, notKept: 0 };
    fc.assert(
      fc.property(noteText, (text) => {
        const kept = keptNoteOf(PATH, text);
        const read = offsets.map((offsetAt) => interpretConfirmed(PATH, classifyRecord(text), offsetAt));
        const same = read.every((r) => JSON.stringify(r) === JSON.stringify(read[0]));
        seen[kept === null ? "notKept" : "kept"] += 1;
        if (kept?.record.fieldWarnings) seen.warned += 1;
        if (kept === null) {
          // Not kept: damaged, or its reading depends on the zone (or it holds no plain JSON).
          const first = read[0];
          expect(!("record" in first) || !same || /T10:45:00$|T10:00:00$/m.test(text)).toBe(true);
          return;
        }
        expect(same).toBe(true);
        const first = read[0];
        if (!("record" in first)) throw new Error("kept a note that does not read as a session");
        expect(sessionOf(PATH, kept.record)).toEqual({ ...first.record, body: "", bodyPending: true });
        const body = classifyRecord(text);
        const bits = SECTIONS.map((h) => (body.state === "ok" && plainSection(body.body, h) !== null ? 1 : 0));
        expect(SECTIONS.map((_, i) => (kept.sections >> i) & 1)).toEqual(bits);
      }),
      { numRuns: 400 },
    );
    expect([seen.kept > 20, seen.warned > 5, seen.notKept > 20]).toEqual([true, true, true]);
  });

  it("keeps recall_rating: banana as unrated, with the warning a read gives", () => {
    const text = [
      "---",
      "palee_schema: 1",
      "session_id: S-20260813T080000-ab12",
      "topic_id: T-a",
      ...COMPLETED_45,
      "recall_rating: banana",
      "---",
      "# S",
      "",
    ].join("\n");
    const kept = keptNoteOf(PATH, text);
    expect(kept?.record.recallRating).toBeNull();
    expect(kept?.record.fieldWarnings).toEqual([
      expect.stringMatching(/S-20260813T080000-ab12\.md.*recall_rating.*banana/),
    ]);
  });
});

/** The texts of olderNotes' notes, by name. */
const texts = new Map<string, string>();

/** What the full scan hands DeviceMemory.sessionRead for an older note's text: its session, body and all. */
function sessionRead(name: string): ConfirmedSession {
  const path = `${FOLDER}/${name}`;
  const read = interpretConfirmed(path, classifyRecord(texts.get(name) ?? null), () => 0);
  if (!("record" in read)) throw new Error(`${name} is not a session`);
  return read.record;
}

function olderNotes(count: number, at = NOW): Map<string, OlderNote> {
  const notes = new Map<string, OlderNote>();
  for (let i = 0; i < count; i++) {
    const name = nameAt(at - KEPT_SPAN_MS - (i + 1) * DAY, (0xa000 + i).toString(16));
    const front = [`session_id: ${name.slice(0, -3)}`, `topic_id: T-${i % 3}`, ...COMPLETED_45];
    const next = i % 2 ? "\n## Next action\n\nGo on.\n" : "";
    const text = `---\npalee_schema: 1\n${front.join("\n")}\n---\n# S\n${next}`;
    texts.set(name, text);
    const note = keptNoteOf(`${FOLDER}/${name}`, text);
    if (note) notes.set(name, note);
  }
  return notes;
}

describe("what a call saves of the older notes", () => {
  const recent = nameAt(NOW - DAY, "ffff");

  it("saves the notes it read only when it read every older one, dated when it began", () => {
    const notes = olderNotes(4);
    const names = [...notes.keys()];
    const older = new OlderFields(FOLDER, () => null);
    older.begin(NOW);
    // A call that never asks for a kept note learns nothing (it reads a few notes, not the history).
    older.learn(names[0], sessionRead(names[0]));
    expect(older.toSave([...names, recent], () => true)).toBeNull();
    expect(older.keptFor(names[0])).toBeNull(); // a full scan asks first: nothing kept
    for (const name of names.slice(2)) older.learn(name, sessionRead(name)); // as the scan read them
    older.learn(names[1], null); // damaged, or its reading asked for the zone: read, not kept
    expect(older.toSave([...names, recent], () => true)).toBeNull(); // one older note never read
    older.learn(names[0], sessionRead(names[0]));
    const save = older.toSave([...names, recent], () => true);
    expect(save?.at).toBe(NOW);
    expect([...(save?.notes.notes() ?? [])].sort()).toEqual([...notes].filter(([n]) => n !== names[1]).sort());
    // A recent note's read is not the older part's.
    expect(older.nameOf(`${FOLDER}/${recent}`)).toBeNull();
  });

  it("never carries kept notes into a file, but drops the names gone, dated as they were read", () => {
    const notes = olderNotes(5);
    const names = [...notes.keys()];
    const older = new OlderFields(FOLDER, () => keptOf(names[0] > "S-" ? "S-99" : "S-", notes));
    older.begin(NOW);
    expect(older.keptFor(names[1])?.session(names[1], `${FOLDER}/${names[1]}`)?.sessionId).toBe(names[1].slice(0, -3));
    expect(older.toSave(names, () => true)).toBeNull(); // nothing gone: nothing to save
    const save = older.toSave(names, (n) => n !== names[2]);
    expect(save?.at).toBe("as read");
    expect([...(save?.notes.names() ?? [])].sort()).toEqual(names.filter((n) => n !== names[2]).sort());
    // A write of a kept note drops it; a file found written since a bound is read, not answered.
    older.forget(names[3]);
    expect(older.keptFor(names[3])?.sections(names[3])).toBeUndefined();
    older.wasWritten([names[4]]);
    expect(older.keptFor(names[4])).toBeNull();
    // What the older totals fold (keptNow): the kept notes, never one found written since a bound.
    const now = older.keptNow(names, () => true);
    expect(now?.at).toBe("as read");
    expect(now?.notes.session(names[4], `${FOLDER}/${names[4]}`)).toBeUndefined();
    expect(now?.notes.session(names[1], `${FOLDER}/${names[1]}`)?.sessionId).toBe(names[1].slice(0, -3));
    expect(older.keptFor(names[1])).not.toBeNull();
  });

  it("learns nothing while notes are kept (a file is one call's reads)", () => {
    const notes = olderNotes(2);
    const names = [...notes.keys()];
    const older = new OlderFields(FOLDER, () => keptOf("S-99", new Map([[names[0], notes.get(names[0])!]])));
    older.begin(NOW);
    older.learn(names[1], sessionRead(names[1]));
    expect(older.toSave(names, () => true)).toBeNull();
  });
});

describe("the older notes' file", () => {
  it("reads back every session and section it was saved with", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), (count) => {
        const notes = olderNotes(count);
        const text = renderOlderFields(OWNER, keptOf("S-20261120T000000", notes), NOW);
        const read = parseOlderFields(text, OWNER, NOW + 1000);
        expect(read?.savedAt).toBe(NOW);
        for (const [name, note] of notes) {
          const path = `${FOLDER}/${name}`;
          expect(read?.kept.session(name, path)).toEqual(sessionOf(path, note.record));
          expect(read?.kept.sections(name)).toBe(note.sections);
        }
        expect(read?.kept.notes()).toEqual(notes);
        expect(read?.kept.session("S-20200101T000000-0000.md", "x")).toBeUndefined();
      }),
      { numRuns: 30 },
    );
  });

  it("trusts no damaged, foreign, stale or forged file", () => {
    const text = renderOlderFields(OWNER, keptOf("S-2", olderNotes(3)), NOW);
    expect(parseOlderFields(text.replace("T-1", "T-9"), OWNER, NOW)).toBeNull();
    expect(parseOlderFields(text, { ...OWNER, folder: "study/sessions" }, NOW)).toBeNull();
    expect(parseOlderFields(text, OWNER, NOW + 24 * 3_600_000 + 1)).toBeNull();
    expect(parseOlderFields(text, OWNER, NOW - 1)).toBeNull();
    const body = text.slice(text.indexOf("\n", text.indexOf("\n") + 1) + 1);
    // A checksum that holds over a startedMs that is not a number: what a forger writes; never used.
    const forgedBody = body.replace(/(\[\s*)(\d{13})/, '$1"soon"');
    const sha256 = createHash("sha256").update(forgedBody).digest("hex");
    const forged = `${FORMAT}\n${JSON.stringify({ part: "older", ...OWNER, saved_at: NOW, sha256 })}\n${forgedBody}`;
    expect(forgedBody).not.toBe(body);
    expect(parseOlderFields(forged, OWNER, NOW)).toBeNull();
  });
});
