/**
 * Temp files left by a killed write (contract §2 "Temporary files"): rebuild moves the tool's own, older than an
 * hour, to the trash — the only exception to the deletion boundary, for that exact pattern only.
 */
import { assertTempRemovable, isOwnTempFile, layoutFor } from "../../src/core/records/layout";
import { BoundaryError, BusyError } from "../../src/core/errors";
import { confirmedText } from "../support/builders";
import { PaleeSessions } from "../../src/core/sessions";
import { trashStaleTempFiles } from "../../src/core/records/temp-files";
import { harness as plainHarness } from "../support/fakes";
import { S } from "../support/inspect";

const LAYOUT = layoutFor("palee");
const HOUR = 60 * 60_000;

const OURS = [
  "palee/.hot.md.1a2b3c4d.tmp",
  "palee/.index.md.00ff00ff.tmp",
  "palee/sessions/.S-20260813T100000-abcd.md.deadbeef.tmp",
  "palee/sessions/.DRAFT-S-0000abcd.md.12345678.tmp",
];
const LOOK_ALIKES = [
  "palee/.hot.md.tmp",
  "palee/.hot.md.1A2B3C4D.tmp",
  "palee/.notes.md.1a2b3c4d.tmp",
  "palee/hot.md.1a2b3c4d.tmp",
  "palee/sessions/.hot.md.1a2b3c4d.tmp",
  "palee/.S-20260813T100000-abcd.md.deadbeef.tmp",
  "palee/sessions/.S-x.md.deadbeef.tmp",
  "palee/sessions/.my-notes.md.deadbeef.tmp",
  "palee/sessions/.DRAFT-S-0000abcd.md.12345678.tmp.md",
  "palee/other/.hot.md.1a2b3c4d.tmp",
];

/** The core as the CLI builds it: its rebuild, start and end handle temp files. */
function harness() {
  const h = plainHarness();
  return { ...h, core: new PaleeSessions(h.ports, LAYOUT, { tempFiles: trashStaleTempFiles }) };
}

function split(path: string): [string, string] {
  const slash = path.lastIndexOf("/");
  return [path.slice(0, slash), path.slice(slash + 1)];
}

describe("the tool's own temp files", () => {
  it("match the exact pattern only", () => {
    for (const path of OURS) expect([path, isOwnTempFile(LAYOUT, ...split(path))]).toEqual([path, true]);
    for (const path of LOOK_ALIKES) expect([path, isOwnTempFile(LAYOUT, ...split(path))]).toEqual([path, false]);
    for (const path of LOOK_ALIKES) expect(() => assertTempRemovable(LAYOUT, path)).toThrow(BoundaryError);
    expect(() => assertTempRemovable(LAYOUT, "palee/sessions/S-20260813T100000-abcd.md")).toThrow(BoundaryError);
  });

  it("rebuild moves ours older than an hour to the trash and says so", async () => {
    const { store, core, clock } = harness();
    store.files.set(S("S-20260813T100000-abcd"), confirmedText({ session_id: "S-20260813T100000-abcd" }));
    for (const path of OURS) {
      store.files.set(path, "half a write");
      store.mtimes.set(path, clock.now() - HOUR - 1);
    }
    const result = await core.rebuild();
    expect(store.trashed.map((t) => t.path).sort()).toEqual([...OURS].sort());
    for (const path of OURS)
      expect(result.warnings).toContain(`moved ${path} (left by an interrupted write) to the trash`);
    expect(result.totalConfirmed).toBe(1);
  });

  it("rebuild leaves younger ones (a write may be in progress) and look-alikes alone", async () => {
    const { store, core, clock } = harness();
    for (const path of LOOK_ALIKES) {
      store.files.set(path, "not ours");
      store.mtimes.set(path, clock.now() - 10 * HOUR);
    }
    for (const path of OURS) {
      store.files.set(path, "a write in progress");
      store.mtimes.set(path, clock.now() - HOUR + 60_000);
    }
    await core.rebuild();
    expect(store.trashed).toEqual([]);
    for (const path of [...LOOK_ALIKES, ...OURS]) expect(store.files.has(path)).toBe(true);
  });

  it("a start and an end that wrote also move them (the scans they make look there), and say so", async () => {
    const { store, core, clock } = harness();
    const plant = (): void => {
      for (const path of OURS) {
        store.files.set(path, "half a write");
        store.mtimes.set(path, clock.now() - 10 * HOUR);
      }
    };
    plant();
    const started = await core.start({ topic: "T-a" });
    expect(started.status === "started" && started.warnings).toEqual(
      expect.arrayContaining(OURS.map((p) => `moved ${p} (left by an interrupted write) to the trash`)),
    );
    expect(store.trashed.map((t) => t.path).sort()).toEqual([...OURS].sort());
    plant();
    const ended = await core.end({ summary: "s" });
    expect(ended.warnings).toEqual(
      expect.arrayContaining(OURS.map((p) => `moved ${p} (left by an interrupted write) to the trash`)),
    );
    for (const path of OURS) expect(store.files.has(path)).toBe(false);
  });

  it("no other operation removes them, nor a refused start", async () => {
    const { store, core, clock } = harness();
    await core.start({ topic: "T-a" });
    for (const path of OURS) {
      store.files.set(path, "half a write");
      store.mtimes.set(path, clock.now() - 10 * HOUR);
    }
    expect((await core.start({ topic: "T-a" })).status).toBe("already_open");
    await core.checkpoint({ notes: "n" });
    await core.list();
    await core.status();
    expect(store.trashed.map((t) => t.path).filter((p) => p.endsWith(".tmp"))).toEqual([]);
  });
});

describe("the sweep when a move is refused", () => {
  function sweepRefusedWith(refusal: Error): Promise<string[]> {
    const h = harness();
    h.store.files.set(OURS[0], "half a write");
    h.store.mtimes.set(OURS[0], h.clock.now() - HOUR - 1);
    h.store.trash = () => Promise.reject(refusal);
    return trashStaleTempFiles(h.ports, LAYOUT);
  }

  it("a failed move is a warning, and the operation goes on", async () => {
    expect(await sweepRefusedWith(new Error("EACCES: permission denied"))).toEqual([
      `could not move ${OURS[0]} (left by an interrupted write) to the trash: EACCES: permission denied`,
    ]);
  });

  it("a lost vault lock (busy) stops the operation: nothing more is written", async () => {
    const lost = new BusyError("the vault lock /tmp/x.lock was taken from this process while it was writing");
    await expect(sweepRefusedWith(lost)).rejects.toBe(lost);
  });
});
