import { classifyRecord } from "../../src/core/records/frontmatter";
import { layoutFor } from "../../src/core/records/layout";
import type { SessionStore } from "../../src/core/ports";
import { PaleeSessions } from "../../src/core/sessions";
import { draftText, hotText } from "../support/builders";
import { CrashingStore } from "../support/crashing-store";
import { FakeClock, SeededRandom } from "../support/fakes";
import { confirmedPaths } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const clock = FakeClock.at("2026-08-14T12:00:00Z");
const DRAFTS = ["DRAFT-S-0000000a", "DRAFT-S-0000000b"];

function vault(): MemoryStore {
  return new MemoryStore({
    "palee/hot.md": hotText({
      active_topic: "T-a",
      started_at: "2026-08-14T11:00:00+00:00",
      open_draft: DRAFTS[0] ?? null,
      device: "laptop",
    }),
    [`palee/sessions/${DRAFTS[0]}.md`]: draftText(
      {
        session_id: DRAFTS[0] ?? "",
        topic_id: "T-a",
        started_at: "2026-08-14T11:00:00+00:00",
        last_checkpoint_at: "2026-08-14T11:20:00+00:00",
      },
      "notes a\n",
    ),
    [`palee/sessions/${DRAFTS[1]}.md`]: draftText(
      {
        session_id: DRAFTS[1] ?? "",
        topic_id: "T-a",
        started_at: "2026-08-14T11:10:00+00:00",
        last_checkpoint_at: "2026-08-14T11:30:00+00:00",
      },
      "notes b\n",
    ),
  });
}

function core(store: SessionStore): PaleeSessions {
  return new PaleeSessions({ store, clock, random: new SeededRandom(5), device: "laptop" }, layoutFor("palee"));
}

/**
 * [name, operation, after which crash points the learner simply runs it again and must not get a second
 * confirmed note]. `end --topic` once hot.md no longer records the session (crash at its last write, the
 * index): by contract §4 tier 3 an explicit end then records a new session from now, with a warning.
 */
type Operation = [string, (c: PaleeSessions) => Promise<unknown>, (k: number) => boolean];
const always = (): boolean => true;
const never = (): boolean => false;
const operations: Operation[] = [
  ["end", (c) => c.end({ summary: "done" }), always],
  ["end --topic", (c) => c.end({ topic: "T-a", summary: "done" }), (k) => k < 4],
  ["save", (c) => c.recover(DRAFTS[1] ?? "", "save"), always],
  ["discard", (c) => c.recover(DRAFTS[1] ?? "", "discard"), always],
  ["resume", (c) => c.recover(DRAFTS[0] ?? "", "resume"), always],
  ["checkpoint", (c) => c.checkpoint({ notes: "more" }), always],
  ["rebuild", (c) => c.rebuild(), always],
  ["end then start", (c) => c.end({ summary: "done" }).then(() => c.start({ topic: "T-b" })), never],
  [
    "end then checkpoint on a new topic",
    (c) => c.end().then(() => c.checkpoint({ topic: "T-c", notes: "new" })),
    never,
  ],
];

/**
 * After a crash at write k and the next start-up (reconcile through start, then rebuild), every draft's
 * session exists exactly once — still a draft, or absorbed by exactly one confirmed note — no confirmed
 * note is half-written, and the views agree with the confirmed notes.
 */
async function checkInvariants(store: MemoryStore, discarded: ReadonlySet<string>): Promise<void> {
  const fresh = core(store);
  await fresh.start({ topic: "T-a", ifOpen: "keep", ignoreDrafts: new Set(DRAFTS) });
  await fresh.rebuild();
  const list = await fresh.list({ all: true });
  expect(list.skipped).toEqual([]);
  for (const id of DRAFTS) {
    const asDraft = list.drafts.filter((d) => d.draftId === id).length;
    const absorbedBy = list.confirmed.filter((s) => s.absorbedDrafts.includes(id)).length;
    if (discarded.has(id) && asDraft + absorbedBy === 0) continue;
    expect({ id, total: asDraft + absorbedBy }).toEqual({ id, total: 1 });
  }
  const index = store.files.get("palee/index.md") ?? "";
  expect(index).toContain(`Total sessions: ${list.totalConfirmed}`);
  for (const s of list.confirmed) expect(index).toContain(`[[${s.sessionId}]]`);
  expect(classifyRecord(store.files.get("palee/hot.md") ?? null).state).toBe("ok");
}

const confirmedCount = (store: MemoryStore): number => confirmedPaths(store).length;

describe("a crash at every write", () => {
  it.each(operations)("of %s loses and duplicates nothing", async (name, run, retry) => {
    // Count the writes of an uninterrupted run, then crash before each one of them in turn.
    const uninterrupted = vault();
    const counting = new CrashingStore(uninterrupted, Number.POSITIVE_INFINITY);
    await run(core(counting));
    expect(counting.writes).toBeGreaterThan(0);
    for (let k = 0; k <= counting.writes; k++) {
      const files = vault();
      const crashing = new CrashingStore(files, k);
      const outcome = await run(core(crashing)).then(
        () => "finished",
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      expect([k, outcome]).toEqual([k, k < counting.writes ? "simulated crash" : "finished"]);
      if (retry(k)) {
        // The learner runs the same command again: it must finish the job, not do it twice.
        await run(core(files)).catch(() => undefined);
        expect([k, confirmedCount(files)]).toEqual([k, confirmedCount(uninterrupted)]);
      }
      await checkInvariants(files, new Set(name === "discard" ? [DRAFTS[1] ?? ""] : []));
    }
  });
});
