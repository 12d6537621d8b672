/**
 * What a scan keeps of each note it reads (issue 36, bounded memory): the record without its body, which is
 * read again where it is needed (withBody), as for a record from the metadata cache; every field as the note's
 * text gives it. Export and brief answers read the body through withBody and so stay the same.
 */
import { layoutFor } from "../../src/core/records/layout";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { exportRow } from "../../src/core/insight/export";
import { interpretConfirmed } from "../../src/core/records/records";
import { scanSessions, withBody } from "../../src/core/scan";
import { confirmedText } from "../support/builders";
import { MemoryStore } from "../support/memory-store";

const LAYOUT = layoutFor("palee");
const UTC = (): number => 0;

describe("a full scan's records", () => {
  it("hold no body, and give back exactly the note's record once its body is read", async () => {
    const store = new MemoryStore();
    const texts = new Map<string, string>();
    for (let i = 0; i < 5; i++) {
      const id = `S-20260813T10000${i}-000${i}`;
      const text = confirmedText(
        { session_id: id, topic_id: `T-topic-number-${i}`, started_at: `2026-08-13T10:00:0${i}+00:00` },
        { summary: `Summary ${i}: ${"a long body ".repeat(200)}`, next: `Next ${i}.`, notes: "Notes." },
      );
      const path = `${LAYOUT.sessions}/${id}.md`;
      store.files.set(path, text);
      texts.set(path, text);
    }
    const scan = await scanSessions(store, LAYOUT, UTC);
    expect(scan.confirmed).toHaveLength(5);
    for (const session of scan.confirmed) {
      const whole = interpretConfirmed(session.path, classifyRecord(texts.get(session.path) ?? null), UTC);
      if (!("record" in whole)) throw new Error(`${session.path} does not read`);
      expect(session.body).toBe("");
      expect(session.bodyPending).toBe(true);
      expect({ ...session, body: whole.record.body, bodyPending: undefined }).toEqual({
        ...whole.record,
        bodyPending: undefined,
      });
      const full = await withBody(store, session, UTC);
      expect(full).toEqual(whole.record);
      expect(exportRow(full)).toEqual(exportRow(whole.record));
      expect(exportRow(full).summary).toMatch(/^Summary \d: a long body/);
    }
  });
});
