/**
 * Records of the original PALEE tool (contract §2): confirmed notes without duration_minutes, outcome or
 * absorbed_drafts, dated in UTC with milliseconds, are read as ok and never rewritten.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { interpretConfirmed } from "../../src/core/records/records";
import { harness } from "../support/fakes";
import { HOT, INDEX, S, fields } from "../support/inspect";

const ORIGINAL_ID = "S-20260809T131929-2dc9";
/** The original tool's own example note, byte for byte. */
const ORIGINAL = fs.readFileSync(path.join(__dirname, "..", "fixtures", "original", `${ORIGINAL_ID}.md`), "utf8");

/** An original-tool note of a longer sitting: 42 min 40 s between its UTC timestamps. */
const LONGER_ID = "S-20260810T080000-1a2b";
const LONGER = [
  "---",
  "palee_schema: 1",
  `session_id: "${LONGER_ID}"`,
  'topic_id: "T-graphs"',
  'started_at: "2026-08-10T08:00:00.000Z"',
  'ended_at: "2026-08-10T08:42:40.500Z"',
  'status: "completed"',
  "---",
  `# Session: ${LONGER_ID}`,
  "",
  "Completed learning session for T-graphs.",
  "",
].join("\n");

describe("records of the original PALEE tool", () => {
  it("reads the original's example note as a completed session of 0 minutes with nothing absorbed", () => {
    const result = interpretConfirmed(S(ORIGINAL_ID), classifyRecord(ORIGINAL), () => 0);
    expect(result).toMatchObject({
      record: {
        sessionId: ORIGINAL_ID,
        topicId: "T-general",
        startedAt: "2026-08-09T13:19:29.192Z",
        endedAt: "2026-08-09T13:19:29.192Z",
        durationMinutes: 0,
        outcome: "completed",
        absorbedDrafts: [],
      },
    });
  });

  it("derives the duration from the timestamps, rounded to whole minutes", () => {
    const result = interpretConfirmed(S(LONGER_ID), classifyRecord(LONGER), () => 330);
    expect(result).toMatchObject({ record: { durationMinutes: 43, outcome: "completed", absorbedDrafts: [] } });
  });

  it("still skips a note whose recorded duration_minutes is damaged", () => {
    const damaged = LONGER.replace('status: "completed"', 'status: "completed"\nduration_minutes: 4.5');
    expect(interpretConfirmed(S(LONGER_ID), classifyRecord(damaged), () => 0)).toEqual({
      reason: "duration_minutes is not a whole number of minutes",
    });
  });

  it("lists and rebuilds from them, newest first, and never rewrites them", async () => {
    const { store, core } = harness();
    store.files.set(S(ORIGINAL_ID), ORIGINAL);
    store.files.set(S(LONGER_ID), LONGER);
    const list = await core.list();
    expect(list.skipped).toEqual([]);
    expect(list.confirmed.map((s) => [s.sessionId, s.durationMinutes])).toEqual([
      [LONGER_ID, 43],
      [ORIGINAL_ID, 0],
    ]);

    const rebuilt = await core.rebuild();
    expect(rebuilt).toMatchObject({ totalConfirmed: 2, skipped: [] });
    expect(store.files.get(INDEX)).toContain("Total sessions: 2");
    expect(store.files.get(INDEX)).toContain(`- [[${LONGER_ID}]] - Topic: T-graphs (2026-08-10, 43 min)`);
    expect(store.files.get(INDEX)).toContain(`- [[${ORIGINAL_ID}]] - Topic: T-general (2026-08-09, 0 min)`);
    expect(fields(store, HOT)).toMatchObject({ last_session: LONGER_ID });
    expect(store.files.get(S(ORIGINAL_ID))).toBe(ORIGINAL);
    expect(store.files.get(S(LONGER_ID))).toBe(LONGER);
    expect(store.writes.filter((w) => w.includes("/sessions/"))).toEqual([]);
  });
});
