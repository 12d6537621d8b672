/**
 * The hostile and damaged files corpus (tests/fixtures/hostile) against the core, on the in-memory store:
 * every fixture reads in the state the manifest gives (contract §3); a vault holding all of them next to good
 * sessions and drafts is listed, rebuilt, started, checkpointed, ended, recovered and opened without an
 * unexpected error; every bad session file is skipped with a reason that names it; every good one is listed
 * and indexed; and nothing changes that the spec does not allow (contract §4 deletion boundary, §6.1, §6.3, §6.4).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PaleeError } from "../../src/core/errors";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { countWords, HOT_WORD_LIMIT } from "../../src/core/records/hot-memory";
import { renderTopic } from "../../src/core/topics/display";
import type { Harness } from "../support/fakes";
import { harness } from "../support/fakes";
import { HOT, INDEX } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";
import { HUGE_SUMMARY_ID } from "../fixtures/hostile/generate";
import type { HostileFixture } from "../fixtures/hostile/manifest";
import {
  EXPECTED,
  FIXTURES,
  HOT_VARIANTS,
  MAIN,
  byOutcome,
  hotVault,
  mainVault,
  textOf,
  expectIndexLists,
} from "../fixtures/hostile/manifest";

const TOPIC = "T-corpus-session";

function storeOf(vault: Record<string, Buffer>): MemoryStore {
  return new MemoryStore(Object.fromEntries(Object.entries(vault).map(([p, bytes]) => [p, bytes.toString("utf8")])));
}

function open(store: MemoryStore): Harness {
  return harness({ store, device: "laptop", at: "2026-08-14T12:00:00Z" });
}

/** What changed between two snapshots of a store. */
function diff(before: Record<string, string>, after: Record<string, string>) {
  return {
    changed: Object.keys(before).filter((p) => p in after && after[p] !== before[p]),
    removed: Object.keys(before).filter((p) => !(p in after)),
    added: Object.keys(after).filter((p) => !(p in before)),
  };
}

const skippedLines = (warnings: readonly string[]): string[] => warnings.filter((w) => w.startsWith("skipped "));

/** Every skipped fixture is named in a "skipped <path>: <reason>" line, and only those. */
function expectSkippedWarnings(warnings: readonly string[]): void {
  const lines = skippedLines(warnings);
  expect(lines).toHaveLength(EXPECTED.skipped.length);
  for (const { path: at, reason } of EXPECTED.skipped) {
    const line = lines.find((l) => l.startsWith(`skipped ${at}: `));
    expect({ at, line }).toEqual({ at, line: expect.any(String) as string });
    expect(line?.slice(`skipped ${at}: `.length)).toMatch(reason);
  }
}

/**
 * The deletion boundary and invariant 6.1 over a whole run: only hot.md, index.md and the given drafts may
 * change; only the given drafts may go, and only to the trash, with their content; every other fixture's
 * bytes are as they were; new files are confirmed notes or drafts in sessions/ (or hot.md / index.md).
 */
function expectOnlyAllowedChanges(store: MemoryStore, before: Record<string, string>, mayGo: readonly string[]): void {
  const changes = diff(before, store.snapshot());
  const views = [HOT, INDEX];
  expect(changes.changed.filter((p) => !views.includes(p) && !mayGo.includes(p))).toEqual([]);
  expect(changes.removed.filter((p) => !mayGo.includes(p))).toEqual([]);
  for (const p of changes.removed) expect(store.trashed).toContainEqual({ path: p, content: before[p] });
  for (const p of changes.added)
    expect(p).toMatch(/^palee\/(hot\.md|index\.md|sessions\/(S-\d{8}T\d{6}-[0-9a-f]{4}|DRAFT-S-[0-9a-f]{8})\.md)$/);
  // Nothing trashed but drafts directly inside sessions/.
  for (const t of store.trashed) expect(t.path).toMatch(/^palee\/sessions\/DRAFT-S-[^/]+\.md$/);
}

/** index.md is a record of ours and lists exactly these sessions (expectIndexLists). */
function expectIndexed(store: MemoryStore, sessionIds: readonly string[]): void {
  const index = store.files.get(INDEX) ?? "";
  expect(classifyRecord(index).state).toBe("ok");
  expectIndexLists(index, sessionIds);
}

function expectHotWithinLimit(store: MemoryStore): void {
  const read = classifyRecord(store.files.get(HOT) ?? null);
  expect(read.state).toBe("ok");
  if (read.state !== "ok") return;
  expect(countWords(read.body)).toBeLessThanOrEqual(HOT_WORD_LIMIT);
}

async function refusal(promise: Promise<unknown>): Promise<PaleeError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof PaleeError)) throw new Error(`expected a refusal (PaleeError), got ${String(error)}`);
  return error;
}

// ---------------------------------------------------------------------------------------------------------

describe("the hostile corpus", () => {
  it("has at least 40 fixtures, one manifest entry per file in files/, each placed once", () => {
    const onDisk = fs.readdirSync(path.join(__dirname, "../fixtures/hostile/files")).sort();
    const listed = FIXTURES.map((f) => f.file).filter((f) => !f.startsWith("generated:"));
    expect([...listed].sort()).toEqual(onDisk);
    expect(FIXTURES.length).toBeGreaterThanOrEqual(40);
    const placements = MAIN.map((f) => f.at);
    expect(new Set(placements).size).toBe(placements.length);
  });

  it.each(FIXTURES.map((f) => [f.file, f.state, f] as const))(
    "%s reads as %s",
    (_file, state, fixture: HostileFixture) => {
      expect(classifyRecord(textOf(fixture)).state).toBe(state);
    },
  );

  it("classifies the generated fixtures at their full size (10 MB, 100 000 words)", () => {
    const big = FIXTURES.filter((f) => f.file.startsWith("generated:"));
    expect(
      big.map((f) => Buffer.byteLength(textOf(f)) >= 10 * 1024 * 1024 || countWords(textOf(f)) >= 100_000),
    ).toEqual([true, true]);
  });
});

describe("a vault holding every damaged file next to good sessions", () => {
  it("list reports every file: good ones listed, bad ones skipped by name with a reason, nothing written", async () => {
    const store = storeOf(mainVault());
    const { core } = open(store);
    const result = await core.list({ all: true });
    expect(result.confirmed.map((s) => s.sessionId).sort()).toEqual([...EXPECTED.confirmed].sort());
    // A draft a note already saved is listed as reconcile would leave it (issue 35 §4: list agrees with status).
    expect(result.drafts.map((d) => d.draftId).sort()).toEqual([...EXPECTED.pending].sort());
    for (const f of byOutcome("absorbed-draft")) {
      expect(result.warnings).toContainEqual(
        expect.stringContaining(`${f.outcome.draftId} was already saved as ${f.outcome.by}`),
      );
    }
    expect(result.skipped.map((s) => s.path).sort()).toEqual(EXPECTED.skipped.map((s) => s.path).sort());
    for (const { path: at, reason } of EXPECTED.skipped) {
      expect({ at, reason: result.skipped.find((s) => s.path === at)?.reason }).toEqual({
        at,
        reason: expect.stringMatching(reason) as string,
      });
    }
    // Newest first by recorded started_at (contract §6.6).
    const starts = result.confirmed.map((s) => s.startedMs);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    expect(store.writes).toEqual([]);
  });

  it(
    "list reports each damaged paused_at / break_minutes by file name, reads it as absent, and " +
      "never shows a negative time",
    async () => {
      const store = storeOf(mainVault());
      const { core } = open(store);
      const result = await core.list({ all: true });
      // Beside them, one line per draft a note already saved (the test above).
      expect(result.warnings).toHaveLength(EXPECTED.warned.length + byOutcome("absorbed-draft").length);
      for (const { path: at, warning } of EXPECTED.warned) {
        const line = result.warnings.find((w) => w.startsWith(`${at}: `));
        expect({ at, line }).toEqual({ at, line: expect.any(String) as string });
        expect(line?.slice(at.length)).toMatch(warning);
      }
      for (const id of ["DRAFT-S-0000d009", "DRAFT-S-0000d00a", "DRAFT-S-0000d00b", "DRAFT-S-0000d00c"]) {
        expect(result.drafts.find((d) => d.draftId === id)).toMatchObject({ pausedAt: null, breakMinutes: 0 });
      }
      for (const id of ["S-20260715T100000-p001", "S-20260715T110000-p002"]) {
        expect(result.confirmed.find((c) => c.sessionId === id)).toMatchObject({
          durationMinutes: 40,
          breakMinutes: 0,
        });
      }
      expect(result.confirmed.filter((c) => c.durationMinutes < 0 || c.breakMinutes < 0)).toEqual([]);
      expect(result.drafts.filter((d) => d.breakMinutes < 0)).toEqual([]);
      expect(store.writes).toEqual([]);
      // Their index lines (rebuild) give the recorded 40 minutes, and no line of index.md shows a negative time.
      await core.rebuild();
      const index = (store.files.get(INDEX) ?? "").split("\n");
      for (const id of ["S-20260715T100000-p001", "S-20260715T110000-p002"]) {
        expect(index.filter((l) => l.startsWith(`- [[${id}]] `) && l.includes("40"))).toHaveLength(1);
      }
      expect(index.filter((l) => /(^|[^\w-])-\d/.test(l.replace(/\[\[[^\]]*\]\]/g, "")))).toEqual([]);
    },
  );

  it(
    "rebuild writes only hot.md and index.md: every good session indexed, hot.md within 250 " +
      "words of the 100 000-word summary",
    async () => {
      const store = storeOf(mainVault());
      const before = store.snapshot();
      const { core } = open(store);
      const result = await core.rebuild();
      expect(result.totalConfirmed).toBe(EXPECTED.confirmed.length);
      expect(result.skipped.map((s) => s.path).sort()).toEqual(EXPECTED.skipped.map((s) => s.path).sort());
      expect(store.writes.sort()).toEqual([`replace ${HOT}`, `replace ${INDEX}`]);
      expectIndexed(store, EXPECTED.confirmed);
      expectHotWithinLimit(store);
      expect(store.files.get(HOT)).toContain(`Source: [[${HUGE_SUMMARY_ID}]]`);
      expectOnlyAllowedChanges(store, before, []);
    },
  );

  it(
    "start offers the usable drafts, reconcile trashes the one already absorbed; start, " +
      "checkpoint and end then work and change only what they may",
    async () => {
      const store = storeOf(mainVault());
      const before = store.snapshot();
      const { core, clock } = open(store);
      const absorbed = byOutcome("absorbed-draft");

      const first = await core.start({ topic: TOPIC });
      expect(first.status).toBe("drafts_pending");
      if (first.status !== "drafts_pending") return;
      expect(first.drafts.map((d) => d.draftId).sort()).toEqual([...EXPECTED.pending].sort());
      expect(store.trashed.map((t) => t.path)).toEqual(absorbed.map((f) => f.at));

      const started = await core.start({ topic: TOPIC, ignoreDrafts: new Set(EXPECTED.pending) });
      expect(started.status).toBe("started");
      if (started.status !== "started") return;
      expectSkippedWarnings(started.warnings);
      const ours = `palee/sessions/${started.draftId}.md`;

      clock.advance(20);
      const checkpoint = await core.checkpoint({ notes: "Checkpoint among damaged files." });
      expect(checkpoint).toMatchObject({ created: false, draft: { draftId: started.draftId } });

      clock.advance(25);
      const ended = await core.end({ summary: "Studied next to a hostile corpus." });
      expect(ended).toMatchObject({
        alreadySaved: false,
        absorbedDrafts: [started.draftId],
        session: { topicId: TOPIC, durationMinutes: 45 },
      });
      expectSkippedWarnings(ended.warnings);

      const list = await core.list({ all: true });
      const all = [...EXPECTED.confirmed, ended.session.sessionId];
      expect(list.confirmed.map((s) => s.sessionId).sort()).toEqual(all.sort());
      expect(list.drafts.map((d) => d.draftId).sort()).toEqual([...EXPECTED.pending].sort());
      expectIndexed(store, all);
      expectHotWithinLimit(store);
      expect(store.trashed.map((t) => t.path).sort()).toEqual([...absorbed.map((f) => f.at), ours].sort());
      expectOnlyAllowedChanges(store, before, [...absorbed.map((f) => f.at), ours]);
    },
  );

  it(
    "recover saves, discards, resumes and ignores the usable drafts, and refuses the damaged " +
      "ones by name without touching them",
    async () => {
      const store = storeOf(mainVault());
      const before = store.snapshot();
      const { core } = open(store);
      const at = (id: string): string => `palee/sessions/${id}.md`;

      // The conflict copy and its original record one sitting: saving the copy absorbs both, with both notes.
      const saved = await core.recover("DRAFT-S-12345678 2", "save");
      expect(saved).toMatchObject({
        status: "saved",
        session: {
          absorbedDrafts: ["DRAFT-S-12345678", "DRAFT-S-12345678 2"],
          outcome: "interrupted",
          topicId: "T-sync",
        },
      });
      if (saved.status !== "saved") throw new Error(`expected saved, got ${saved.status}`);
      expect(store.files.get(saved.session.path)).toContain("Laptop notes.\n\nPhone notes.\n");
      const badStart = await core.recover("DRAFT-S-0000d007", "save");
      expect(badStart).toMatchObject({ status: "saved", session: { durationMinutes: 0 } });
      await expect(core.recover("DRAFT-S-0000d001", "discard")).resolves.toMatchObject({ status: "discarded" });
      await expect(core.recover("DRAFT-S-0000d005", "ignore")).resolves.toMatchObject({ status: "ignored" });
      await expect(core.recover("DRAFT-S-renamed by user", "resume")).resolves.toMatchObject({
        status: "resumed",
        open: { topicId: "T-renamed-draft" },
      });
      // Already saved by the confirmed note whose absorbed_drafts is one string: never saved twice.
      await expect(core.recover("DRAFT-S-0000a005", "save")).resolves.toMatchObject({
        status: "saved",
        alreadySaved: true,
        session: { sessionId: "S-20260703T100000-t005" },
      });

      for (const [id, action] of [
        ["DRAFT-S-0000d002", "save"],
        ["DRAFT-S-0000d003", "discard"],
        ["DRAFT-S-0000d004", "discard"],
        ["DRAFT-S-0000d008", "resume"],
      ] as const) {
        const error = await refusal(core.recover(id, action));
        expect({ id, exitCode: error.exitCode, message: error.message }).toEqual({
          id,
          exitCode: 2,
          message: expect.stringContaining(at(id)) as string,
        });
      }

      const list = await core.list({ all: true });
      const savedIds = [saved, badStart].map((r) => (r.status === "saved" ? r.session.sessionId : ""));
      expect(list.confirmed.map((s) => s.sessionId).sort()).toEqual([...EXPECTED.confirmed, ...savedIds].sort());
      expectIndexed(store, [...EXPECTED.confirmed, ...savedIds]);
      const gone = [
        "DRAFT-S-12345678",
        "DRAFT-S-12345678 2",
        "DRAFT-S-0000d007",
        "DRAFT-S-0000d001",
        "DRAFT-S-0000a005",
      ].map(at);
      expect(store.trashed.map((t) => t.path).sort()).toEqual([...gone].sort());
      // The resumed draft's frontmatter is updated (this device, now); its notes are kept.
      const resumed = at("DRAFT-S-renamed by user");
      expect(store.files.get(resumed)).toContain("Draft notes.\n");
      expectOnlyAllowedChanges(store, before, [...gone, resumed]);
    },
  );

  it("open vault (the plugin at start-up) offers the usable drafts and names every skipped file", async () => {
    const store = storeOf(mainVault());
    const before = store.snapshot();
    const { core } = open(store);
    const result = await core.triageOnOpen();
    expect(result.resumed).toBeNull();
    expect(result.openElsewhere).toBeNull();
    expect(result.pending.map((d) => d.draftId).sort()).toEqual([...EXPECTED.pending].sort());
    expectSkippedWarnings(result.warnings);
    const absorbed = byOutcome("absorbed-draft").map((f) => f.at);
    expect(result.warnings).toContain(
      `${absorbed[0]} was already saved in S-20260703T100000-t005; moved it to the trash`,
    );
    expectOnlyAllowedChanges(store, before, absorbed);
  });

  it("checkpoint and end without start (hot.md missing) record the session and change only what they may", async () => {
    const store = storeOf(mainVault());
    const before = store.snapshot();
    const { core, clock } = open(store);
    const checkpoint = await core.checkpoint({ topic: TOPIC, notes: "No start, straight to a checkpoint." });
    expect(checkpoint).toMatchObject({ created: true, opened: true });
    clock.advance(10);
    const ended = await core.end({ topic: TOPIC });
    expect(ended).toMatchObject({ absorbedDrafts: [checkpoint.draft.draftId], session: { durationMinutes: 10 } });
    expectSkippedWarnings(ended.warnings);
    const ours = `palee/sessions/${checkpoint.draft.draftId}.md`;
    // checkpoint reconciles first (no session is open): the draft already absorbed goes to the trash.
    const absorbed = byOutcome("absorbed-draft").map((f) => f.at);
    expectIndexed(store, [...EXPECTED.confirmed, ended.session.sessionId]);
    expectOnlyAllowedChanges(store, before, [ours, ...absorbed]);
  });
});

describe("each damaged hot.md, in a vault of its own", () => {
  it.each(HOT_VARIANTS.map((f) => [f.file, f] as const))(
    "%s: start resolves the topic as the spec says, then start, checkpoint and end work",
    async (_file, fixture) => {
      if (fixture.outcome.kind !== "hot") throw new Error("not a hot.md fixture");
      const { topicWithout, onStart } = fixture.outcome;
      const store = storeOf(hotVault(fixture));
      const original = store.files.get(HOT) ?? "";
      const confirmedBefore = Object.entries(store.snapshot()).filter(([p]) => p.includes("/sessions/S-"));
      const { core, clock } = open(store);

      // Without a topic: an ok hot.md's active_topic, else "topic required" (and nothing written).
      if (topicWithout === null) {
        const error = await refusal(core.start({}));
        expect({ kind: error.kind, exitCode: error.exitCode }).toEqual({ kind: "topic_required", exitCode: 2 });
        expect(store.writes).toEqual([]);
      }
      const started = await core.start(topicWithout === null ? { topic: TOPIC } : {});
      expect(started.status).toBe("started");
      if (started.status !== "started") return;
      const topic = topicWithout ?? TOPIC;
      expect(started.topicId).toBe(topic);

      const hot = classifyRecord(store.files.get(HOT) ?? null);
      expect(hot.state).toBe("ok");
      if (hot.state !== "ok") return;
      expect(hot.fields).toMatchObject({
        palee_schema: 1,
        active_topic: topic,
        open_draft: started.draftId,
        device: "laptop",
      });
      const originalBody = (() => {
        const read = classifyRecord(original);
        return read.state === "ok" || read.state === "no-frontmatter" ? read.body : null;
      })();
      // The memory of the topic started (contract §2 hot.md, version 3), named first.
      const named = renderTopic(topic).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const startedTopicMemory = new RegExp(`^(Topic: |No sessions on )${named}[ ,]`);
      switch (onStart) {
        case "rebuilt":
        case "updated":
          expect(hot.body).toMatch(startedTopicMemory);
          break;
        case "frontmatter-added":
          expect(hot.body).toBe(originalBody);
          break;
        case "pointer-closed":
          expect(started.warnings).toContain(
            "the open session's draft DRAFT-S-0badf00d no longer exists; closed the session",
          );
          expect(hot.body).toMatch(startedTopicMemory);
          break;
      }

      clock.advance(15);
      await expect(core.checkpoint({ notes: "hot.md test" })).resolves.toMatchObject({
        created: false,
        draft: { draftId: started.draftId },
      });
      clock.advance(15);
      const ended = await core.end({ summary: "Ended." });
      expect(ended).toMatchObject({
        absorbedDrafts: [started.draftId],
        session: { topicId: topic, durationMinutes: 30 },
      });
      const after = classifyRecord(store.files.get(HOT) ?? null);
      expect(after.state).toBe("ok");
      if (after.state === "ok")
        expect(after.fields).toMatchObject({ active_topic: topic, open_draft: null, started_at: null });
      // The session notes that were there are untouched; nothing but our draft went to the trash.
      for (const [p, text] of confirmedBefore) expect(store.files.get(p)).toBe(text);
      expect(store.trashed.map((t) => t.path)).toEqual([`palee/sessions/${started.draftId}.md`]);
      expectHotWithinLimit(store);
    },
  );

  it(
    "a hot.md of palee_schema 2 is left alone by checkpoint and end (with a warning naming " +
      "it), replaced only by start or rebuild",
    async () => {
      const fixture = HOT_VARIANTS.find((f) => f.file === "hot-schema-2.md");
      if (!fixture) throw new Error("no hot-schema-2 fixture");
      const store = storeOf(hotVault(fixture));
      const original = store.files.get(HOT);
      const { core, clock } = open(store);
      const checkpoint = await core.checkpoint({ topic: TOPIC });
      expect(checkpoint.warnings).toContain(
        `${HOT} has an unsupported palee_schema; left it alone (starting a session rebuilds it)`,
      );
      clock.advance(5);
      const ended = await core.end({ topic: TOPIC });
      expect(ended.warnings).toContain(`${HOT} has an unsupported palee_schema; left it alone (a rebuild replaces it)`);
      expect(store.files.get(HOT)).toBe(original);
      await core.rebuild();
      expect(classifyRecord(store.files.get(HOT) ?? null).state).toBe("ok");
    },
  );
});
