/**
 * After a kill at every write of `end` and of `log` (the Node store under a crash switch, on real files), the
 * next reads — the built CLI's `list` and `status`, real processes — tell one story (issue 35 §4): the answer
 * reconcile would give (contract §4 Reconcile) without writing. A session an end saved is listed once, as
 * confirmed, never also as a draft or an open session; a logged note is listed as soon as it exists, whatever
 * index.md says.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { layoutFor } from "../../src/core/records/layout";
import { BOUNDED_VIEWS } from "../../src/core/operations/bounded-views";
import { PaleeSessions } from "../../src/core/sessions";
import { NodeStore } from "../../src/node/node-store";
import { DEVICE, cleanupVaults, makeVault, palee } from "../cli/support";
import { CrashingStore } from "../support/crashing-store";
import { FakeClock, SeededRandom } from "../support/fakes";

afterEach(cleanupVaults);

/** A core as the next CLI call would build it, on `store`, at the real time (the CLI reads the real clock). */
function coreOn(store: CrashingStore): PaleeSessions {
  const ports = { store, clock: new FakeClock(Date.now()), random: new SeededRandom(7), device: DEVICE };
  return new PaleeSessions(ports, layoutFor("palee"), BOUNDED_VIEWS);
}

/** One ended session and an open one with a note, made by the CLI; `list` has run (the device remembers). */
function openVault(): string {
  const vault = makeVault();
  for (const args of [
    ["start", "--topic", "T-a"],
    ["end", "--summary", "first"],
    ["start", "--topic", "T-a"],
    ["draft", "--note", "moves"],
    ["list"],
  ]) {
    expect([args, palee(vault, args).status]).toEqual([args, 0]);
  }
  return vault;
}

/** The writes of an uninterrupted run of `operation` on a copy of a fresh vault: the kill points 0 … n-1. */
async function writesOf(make: () => string, operation: (c: PaleeSessions) => Promise<unknown>): Promise<number> {
  const counting = new CrashingStore(new NodeStore(make()));
  await operation(coreOn(counting));
  return counting.writes;
}

interface Listed {
  confirmed: Array<{ session_id: string; path: string }>;
  drafts: Array<{ draft_id: string }>;
  total_confirmed: number;
  total_drafts: number;
}

function notesOn(vault: string): string[] {
  return fs
    .readdirSync(path.join(vault, "palee", "sessions"))
    .filter((n) => /^S-.*\.md$/.test(n))
    .map((n) => n.slice(0, -3))
    .sort();
}

describe("list and status after a kill at every write of end", () => {
  const end = (c: PaleeSessions) => c.end({ summary: "second" });

  it("agree: the saved session is confirmed, never also a draft or open", async () => {
    const points = await writesOf(openVault, end);
    expect(points).toBeGreaterThanOrEqual(3);
    for (let k = 0; k < points; k++) {
      const vault = openVault();
      const draft = (palee(vault, ["status", "--json"]).json().open as { draft_id: string }).draft_id;
      const store = new CrashingStore(new NodeStore(vault), k);
      await expect(end(coreOn(store))).rejects.toThrow("simulated crash");
      const status = palee(vault, ["status", "--json"]).json() as { open: { draft_id: string } | null };
      const list = palee(vault, ["list", "--json"]).json() as unknown as Listed;
      const text = palee(vault, ["list"]).stdout;
      const label = `killed at write ${k} (${store.crashedAt})`;
      const notes = notesOn(vault);
      expect([label, list.confirmed.map((s) => s.session_id).sort()]).toEqual([label, notes]);
      expect([label, list.total_confirmed]).toEqual([label, notes.length]);
      if (notes.length === 2) {
        // The end wrote its note: the session is over for every read.
        expect([label, status.open]).toEqual([label, null]);
        expect([label, list.drafts.map((d) => d.draft_id)]).toEqual([label, []]);
        expect([label, list.total_drafts]).toEqual([label, 0]);
        expect([label, text.includes("(open session)")]).toEqual([label, false]);
      } else {
        expect([label, status.open?.draft_id]).toEqual([label, draft]);
        expect([label, list.drafts.map((d) => d.draft_id)]).toEqual([label, [draft]]);
        expect([label, text.includes("(open session)")]).toEqual([label, true]);
      }
    }
  });
});

describe("list after a kill at every write of log", () => {
  const log = (c: PaleeSessions) =>
    c.log({ topic: "T-b", minutes: 30, to: new Date(Date.now() - 3 * 3_600_000).toISOString() });

  it("lists the logged note as soon as it exists, before index.md names it", async () => {
    const points = await writesOf(openVault, log);
    expect(points).toBeGreaterThanOrEqual(2);
    let beforeIndex = 0;
    for (let k = 0; k < points; k++) {
      const vault = openVault();
      const store = new CrashingStore(new NodeStore(vault), k);
      await expect(log(coreOn(store))).rejects.toThrow("simulated crash");
      const label = `killed at write ${k} (${store.crashedAt})`;
      const notes = notesOn(vault);
      const index = fs.readFileSync(path.join(vault, "palee", "index.md"), "utf8");
      if (notes.some((id) => !index.includes(id))) beforeIndex++;
      for (const args of [
        ["list", "--json"],
        ["list", "--all", "--json"],
      ]) {
        const list = palee(vault, args).json() as unknown as Listed;
        expect([label, args, list.confirmed.map((s) => s.session_id).sort()]).toEqual([label, args, notes]);
        expect([label, args, list.total_confirmed]).toEqual([label, args, notes.length]);
      }
    }
    // The case of the issue was met: a kill left the note written and index.md without it.
    expect(beforeIndex).toBeGreaterThan(0);
  });
});
