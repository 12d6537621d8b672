/**
 * The hostile and damaged files corpus (tests/fixtures/hostile) in the in-memory Obsidian: the real plugin is
 * loaded over a vault holding every session-folder fixture next to good sessions and drafts, and over each
 * damaged hot.md in a vault of its own; the learner opens the vault, rebuilds, starts, checkpoints, asks
 * for the status and ends. Every notice is a clear sentence without stack-trace text, warnings name the file
 * at fault, note text is shown as text, good sessions are indexed, and nothing is deleted or modified that the
 * spec does not allow. The metadata cache here is obsidian-test-mocks' (the `yaml` package), not Obsidian's
 * own: these tests check what the plugin does with what it is given, not how a cache parses YAML.
 */
import * as path from "node:path";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { countWords, HOT_WORD_LIMIT } from "../../src/core/records/hot-memory";
import { renderTopic } from "../../src/core/topics/display";
import type { HostileFixture } from "../fixtures/hostile/manifest";
import { EXPECTED, HOT_VARIANTS, byOutcome, hotVault, mainVault, expectIndexLists } from "../fixtures/hostile/manifest";
import type { ObsidianHarness } from "./support/obsidian-harness";
import {
  settle,
  MINUTE,
  T0,
  harness,
  installPluginTestEnvironment,
  loadPlugin,
  modals,
  noticeLog,
  pickTopic,
  recoveryModal,
  recoveryRows,
  submitEnd,
} from "./support/plugin-harness";
import { HOT, INDEX, S, draftIds, isTopic } from "./support/session-files";

installPluginTestEnvironment();

const TOPIC = "T-corpus-session";

/** The vault's text files as Obsidian would read them (UTF-8; invalid bytes become U+FFFD). */
function asText(files: Record<string, Buffer>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([p, bytes]) => [p, bytes.toString("utf8")]));
}

/** No notice carries stack-trace or error-dump text. */
function expectCleanNotices(): void {
  for (const notice of noticeLog()) {
    expect({ notice, trace: /^\s+at /m.test(notice), dump: /\b\w*Error:/.test(notice) }).toEqual({
      notice,
      trace: false,
      dump: false,
    });
  }
}

/**
 * The warnings notice: "PALEE Sessions:" then at most three lines, each naming a file (a skipped one, a
 * draft moved to the trash, or a damaged paused_at / break_minutes), then "…and N more": together every
 * skipped and warned file is accounted for.
 */
function expectWarningNotice(notice: string | undefined, extra = 0): void {
  expect(notice).toBeDefined();
  const lines = (notice ?? "").split("\n");
  expect(lines[0]).toBe("PALEE Sessions:");
  const shown = lines.slice(1).filter((l) => !l.startsWith("…and "));
  expect(shown.length).toBeLessThanOrEqual(3);
  for (const line of shown) {
    if (EXPECTED.warned.some((w) => line.startsWith(`${w.path}: `))) continue; // a damaged paused_at / break_minutes
    expect(line).toMatch(
      new RegExp(
        "^(skipped palee/sessions/[^:]+\\.(md|MD): .+|" +
          "palee/sessions/DRAFT-S-[^ ]+\\.md was already saved in S-\\S+; moved it to the trash)$",
      ),
    );
  }
  for (const line of shown.filter((l) => l.startsWith("skipped "))) {
    const fixture = EXPECTED.skipped.find((s) => line.startsWith(`skipped ${s.path}: `));
    expect({ line, named: fixture !== undefined }).toEqual({ line, named: true });
    if (fixture) expect(line.slice(`skipped ${fixture.path}: `.length)).toMatch(fixture.pluginReason);
  }
  const more = /^…and (\d+) more/.exec(lines[lines.length - 1] ?? "");
  expect(shown.length + Number(more?.[1] ?? 0)).toBe(EXPECTED.skipped.length + EXPECTED.warned.length + extra);
}

const warningNotices = (): string[] => noticeLog().filter((n) => n.startsWith("PALEE Sessions:\n"));

const expectIndexed = (h: ObsidianHarness, sessionIds: readonly string[]): void =>
  expectIndexLists(h.files()[INDEX] ?? "", sessionIds);

/** Every path of `before` but hot.md, index.md and `mayGo` has the same text; only `mayGo` went, to the trash. */
function expectOnlyAllowedChanges(h: ObsidianHarness, before: Record<string, string>, mayGo: readonly string[]): void {
  const after = h.files();
  const changed = Object.keys(before).filter(
    (p) => p in after && after[p] !== before[p] && p !== HOT && p !== INDEX && !mayGo.includes(p),
  );
  const removed = Object.keys(before).filter((p) => !(p in after) && !mayGo.includes(p));
  expect({ changed, removed }).toEqual({ changed: [], removed: [] });
  expect(h.deleted).toEqual([]);
  for (const t of h.trashed) {
    expect(t.path).toMatch(/^palee\/sessions\/DRAFT-S-[^/]+\.md$/);
    expect(t.via).toBe("fileManager.trashFile");
  }
}

describe("a vault holding every damaged session file", () => {
  it(
    "opening the vault, rebuilding, starting, checkpointing, the status and ending: clear " +
      "notices naming the files, good sessions indexed, nothing else touched",
    async () => {
      const h = harness({ files: asText(mainVault()) });
      const before = h.files();
      const absorbed = byOutcome("absorbed-draft").map((f) => f.at);
      const p = await loadPlugin(h, { device: "laptop" });

      // Vault open: the draft already absorbed goes to the trash, the usable drafts are offered, the skipped
      // files are named (three, then a count).
      expect(h.trashed.map((t) => t.path)).toEqual(absorbed);
      expect(
        recoveryRows()
          .map((r) => r.draftId)
          .sort(),
      ).toEqual([...EXPECTED.pending].sort());
      // Note text is text: the hostile topic's HTML is shown, not rendered.
      const modal = recoveryModal().contentEl;
      expect(modal.querySelector("img, script")).toBeNull();
      expect(modal.textContent).toContain("<img src=x onerror=alert(1)>");
      expectWarningNotice(warningNotices()[0], absorbed.length);
      recoveryModal().close();

      await p.run("rebuild-views");
      expect(noticeLog()).toContain(`Rebuilt working memory and index from ${EXPECTED.confirmed.length} sessions.`);
      // The rebuild the other notices point to ("…and N more (rebuild … to see the whole list)") names every one.
      const rebuilt = (warningNotices()[1] ?? "").split("\n").slice(1);
      expect(rebuilt).toHaveLength(EXPECTED.skipped.length);
      for (const { path: at, pluginReason } of EXPECTED.skipped) {
        const line = rebuilt.find((l) => l.startsWith(`skipped ${at}: `));
        expect({ at, line }).toEqual({ at, line: expect.any(String) as string });
        expect(line?.slice(`skipped ${at}: `.length)).toMatch(pluginReason);
      }
      expectIndexed(h, EXPECTED.confirmed);

      // Start: the pending drafts are offered again; closing the modal leaves them, and the start goes on.
      await p.ribbon();
      await pickTopic(TOPIC, isTopic(TOPIC));
      expect(
        recoveryRows()
          .map((r) => r.draftId)
          .sort(),
      ).toEqual([...EXPECTED.pending].sort());
      recoveryModal().close();
      await new Promise((resolve) => setTimeout(resolve, 0));
      await p.run("show-status"); // also lets the start finish
      expect(noticeLog()).toContain(`Session on ${TOPIC} started.`);
      const ours = draftIds(h).filter((id) => !(S(id) in before));
      expect(ours).toHaveLength(1);
      expect(noticeLog().some((n) => n.startsWith(`${TOPIC}: `))).toBe(true);

      // Studying: the ticks fire (a jump of the clock alone is a sleep, recorded as time away).
      jest.advanceTimersByTime(T0 + 20 * MINUTE - Date.now());
      await settle();
      await p.run("save-checkpoint");
      expect(noticeLog().some((n) => n.startsWith(`Checkpoint saved (${TOPIC}`))).toBe(true);

      jest.advanceTimersByTime(25 * MINUTE);
      await settle();
      await p.run("end-session");
      await submitEnd("Studied next to a hostile corpus.", "Keep going.");
      expect(noticeLog()).toContain(`Session on ${TOPIC} saved (45 min).`);
      expect(modals()).toEqual([]);

      h.catchUpCache();
      const confirmedNow = Object.keys(h.files())
        .filter((f) => /^palee\/sessions\/S-\d{8}T\d{6}-[0-9a-f]{4}\.md$/.test(f) && !(f in before))
        .map((f) => path.basename(f, ".md"));
      expect(confirmedNow).toHaveLength(1);
      expectIndexed(h, [...EXPECTED.confirmed, ...confirmedNow]);
      const hot = classifyRecord(h.files()[HOT] ?? null);
      expect(hot.state).toBe("ok");
      if (hot.state === "ok") expect(countWords(hot.body)).toBeLessThanOrEqual(HOT_WORD_LIMIT);
      expect(h.trashed.map((t) => t.path).sort()).toEqual([...absorbed, `palee/sessions/${ours[0]}.md`].sort());
      expectOnlyAllowedChanges(h, before, [...absorbed, `palee/sessions/${ours[0]}.md`]);
      expectCleanNotices();
      p.unload();
    },
  );
});

describe("each damaged hot.md, in a vault of its own", () => {
  it.each(HOT_VARIANTS.map((f) => [f.file, f] as const))(
    "%s: the plugin opens, starts and ends a session with clear notices",
    async (_file, fixture: HostileFixture) => {
      if (fixture.outcome.kind !== "hot") throw new Error("not a hot.md fixture");
      const h = harness({ files: asText(hotVault(fixture)) });
      const before = h.files();
      const p = await loadPlugin(h, { device: "laptop" });
      expect(modals()).toEqual([]);

      await p.ribbon();
      await pickTopic(TOPIC, isTopic(TOPIC));
      expect(noticeLog()).toContain(`Session on ${TOPIC} started.`);
      const hot = classifyRecord(h.files()[HOT] ?? null);
      expect(hot.state).toBe("ok");
      if (hot.state !== "ok") return;
      expect(hot.fields).toMatchObject({ palee_schema: 1, active_topic: TOPIC, device: "laptop" });
      const originalRead = classifyRecord(before[HOT] ?? null);
      const originalBody =
        originalRead.state === "ok" || originalRead.state === "no-frontmatter" ? originalRead.body : null;
      // The memory of the topic started (contract §2 hot.md, version 3), named first; a body without
      // frontmatter is the learner's own text, kept.
      const named = renderTopic(TOPIC).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (fixture.outcome.onStart === "frontmatter-added") expect(hot.body).toBe(originalBody);
      else expect(hot.body).toMatch(new RegExp(`^(Topic: |No sessions on )${named}[ ,]`));

      // Studying: the ticks fire (a jump of the clock alone is a sleep, recorded as time away).
      jest.advanceTimersByTime(T0 + 30 * MINUTE - Date.now());
      await settle();
      await p.run("end-session");
      await submitEnd("Done.", "");
      expect(noticeLog()).toContain(`Session on ${TOPIC} saved (30 min).`);
      const after = classifyRecord(h.files()[HOT] ?? null);
      expect(after.state === "ok" ? after.fields : after.state).toMatchObject({
        open_draft: null,
        active_topic: TOPIC,
      });
      const ours = h.trashed.map((t) => t.path);
      expect(ours).toHaveLength(1);
      expectOnlyAllowedChanges(h, before, ours);
      expectCleanNotices();
      p.unload();
    },
  );
});
