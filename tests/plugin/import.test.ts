/**
 * Importing a `.palee/` folder (contract §5, §9): Obsidian does not index dot-folders, so the seed layout is only
 * visible through the adapter. The command copies its session files into the session folder (through the
 * vault), skips the rest with reasons, rebuilds the views, is idempotent, and never changes `.palee/`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { confirmedText, draftText, hotText } from "../support/builders";
import { layoutFor } from "../../src/core/records/layout";
import { importPaleeFolder } from "../../src/plugin/adapters/import-palee";
import { ObsidianStore } from "../../src/plugin/adapters/obsidian-store";
import type { ObsidianHarness } from "./support/obsidian-harness";
import {
  clearNotices,
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  modals,
  noticeLog,
  recoverAction,
  recoveryRows,
} from "./support/plugin-harness";
import {
  HOT,
  INDEX,
  S,
  bodyAt,
  confirmedPaths,
  draftPaths,
  fieldsAt,
  textAt,
  openModals,
} from "./support/session-files";

installPluginTestEnvironment();

const CONFIRMED = "S-20260813T100000-abcd";
const OLDER = "S-20260812T090000-0123";
const DRAFT = "DRAFT-S-0000beef";

const LEGACY: Record<string, string> = {
  ".palee/hot.md": hotText({ last_session: CONFIRMED }, "Old working memory\n"),
  ".palee/index.md": "---\npalee_schema: 1\ntype: session_index\n---\n# PALEE session index\n",
  ".palee/notes.txt": "scratch\n",
  [`.palee/sessions/${CONFIRMED}.md`]: confirmedText(
    { session_id: CONFIRMED },
    { summary: "Moves and borrows", next: "Lifetimes" },
  ),
  [`.palee/sessions/${OLDER}.md`]: confirmedText(
    {
      session_id: OLDER,
      topic_id: "T-graphs",
      started_at: "2026-08-12T09:00:00+00:00",
      ended_at: "2026-08-12T09:30:00+00:00",
      duration_minutes: 30,
    },
    { summary: "BFS" },
  ),
  [`.palee/sessions/${DRAFT}.md`]: draftText({ session_id: DRAFT, device: "old-laptop" }, "Draft notes\n"),
  ".palee/sessions/README.md": "What these files are\n",
};

/** Writes the legacy folder through the adapter only, as the seed CLI did: the vault does not list it. */
function seedLegacy(h: ObsidianHarness, files: Record<string, string> = LEGACY): void {
  for (const [path, text] of Object.entries(files)) h.adapter.writeSync__(path, text);
}

/** The import command's report notice (the newest one). */
function importNotice(): string {
  const reports = noticeLog().filter((n) => n.startsWith("Imported"));
  if (reports.length === 0) throw new Error(`no import notice (notices: ${noticeLog().join(" | ")})`);
  return reports[reports.length - 1];
}

function legacyFiles(h: ObsidianHarness): Record<string, string> {
  return Object.fromEntries(Object.entries(h.files()).filter(([path]) => path.startsWith(".palee/")));
}

async function importedVault(files: Record<string, string> = {}, legacy: Record<string, string> = LEGACY) {
  const h = harness({ files });
  seedLegacy(h);
  if (legacy !== LEGACY) {
    for (const path of Object.keys(LEGACY)) await h.adapter.remove(path);
    seedLegacy(h, legacy);
  }
  expect(h.app.vault.getAbstractFileByPath(".palee")).toBeNull(); // as in Obsidian: not indexed
  const p = await loadPlugin(h, { device: "laptop" });
  return { h, p };
}

describe("importing a .palee folder", () => {
  it("copies the confirmed sessions and drafts into palee/sessions, byte for byte", async () => {
    const { h, p } = await importedVault();
    await p.run("import-palee-folder");
    expect(confirmedPaths(h).sort()).toEqual([S(OLDER), S(CONFIRMED)]);
    expect(draftPaths(h)).toEqual([S(DRAFT)]);
    for (const id of [CONFIRMED, OLDER, DRAFT]) expect(textAt(h, S(id))).toBe(LEGACY[`.palee/sessions/${id}.md`]);
    // Through the vault (so the copies are indexed and synced), not the adapter.
    for (const id of [CONFIRMED, OLDER, DRAFT]) expect(h.app.vault.getFileByPath(S(id))).not.toBeNull();
    expect(h.events.filter((e) => e.startsWith("create palee/sessions/"))).toHaveLength(3);
  });

  it("reports what it copied and what it skipped, with reasons", async () => {
    const { p } = await importedVault();
    await p.run("import-palee-folder");
    expect(importNotice()).toBe(
      "Imported 3 files into palee/sessions. Skipped 4: 2 derived views, rebuilt instead; " +
        "2 not a session file (.palee/notes.txt, .palee/sessions/README.md).",
    );
  });

  it("skips hot.md, index.md and files that are not sessions: none of them reaches the session folder", async () => {
    const { h, p } = await importedVault();
    await p.run("import-palee-folder");
    expect(
      Object.keys(h.files())
        .filter((path) => path.startsWith("palee/"))
        .sort(),
    ).toEqual([HOT, INDEX, S(DRAFT), S(OLDER), S(CONFIRMED)].sort());
    expect(textAt(h, HOT)).not.toContain("Old working memory");
  });

  it("rebuilds hot.md and index.md from the imported sessions", async () => {
    const { h, p } = await importedVault();
    await p.run("import-palee-folder");
    expect(fieldsAt(h, HOT)).toMatchObject({ palee_schema: 1, last_session: CONFIRMED, open_draft: null });
    expect(bodyAt(h, HOT)).toContain("Moves and borrows");
    expect(bodyAt(h, HOT)).toContain(`Source: [[${CONFIRMED}]]`);
    expect(bodyAt(h, INDEX)).toBe(
      "# PALEE session index\n\nTotal sessions: 2\n\n" +
        `- [[${CONFIRMED}]] - Topic: T-rust-ownership (2026-08-13, 45 min)\n` +
        `- [[${OLDER}]] - Topic: T-graphs (2026-08-12, 30 min)\n`,
    );
  });

  it("opens the recovery modal for the imported drafts", async () => {
    const { p } = await importedVault();
    expect(modals()).toHaveLength(0);
    await p.run("import-palee-folder");
    const rows = recoveryRows();
    expect(rows.map((r) => r.draftId)).toEqual([DRAFT]);
    expect(rows[0].text).toContain("On old-laptop");
  });

  it("does not open the recovery modal when no draft was imported", async () => {
    const legacy = { [`.palee/sessions/${CONFIRMED}.md`]: LEGACY[`.palee/sessions/${CONFIRMED}.md`] };
    const { h, p } = await importedVault({}, legacy);
    await p.run("import-palee-folder");
    expect(lastNotice()).toBe("Imported 1 file into palee/sessions.");
    expect(modals()).toHaveLength(0);
    expect(confirmedPaths(h)).toEqual([S(CONFIRMED)]);
  });

  it("is idempotent: a second run copies nothing and changes nothing", async () => {
    const { h, p } = await importedVault();
    await p.run("import-palee-folder");
    recoveryRows(); // the modal of the first run
    p.unload();
    const after = h.files();
    h.resetLogs();

    const again = await loadPlugin(h, { device: "laptop" });
    recoveryRows(); // the imported draft is still pending when the vault opens
    clearNotices();
    await again.run("import-palee-folder");
    expect(importNotice()).toMatch(/^Imported 0 files into palee\/sessions\. Skipped 7: 3 already imported; /);
    expect(h.files()).toEqual(after);
    expect(h.events).toEqual([]);
  });

  it("reports each file of a second run as already imported", async () => {
    const { h, p } = await importedVault();
    await p.run("import-palee-folder");
    const report = await importPaleeFolder(h.app.vault.adapter, new ObsidianStore(h.app), layoutFor("palee"));
    expect(report.copied).toEqual([]);
    expect(report.skipped.filter((s) => s.reason === "already imported").map((s) => s.path)).toEqual([
      `.palee/sessions/${DRAFT}.md`,
      `.palee/sessions/${OLDER}.md`,
      `.palee/sessions/${CONFIRMED}.md`,
    ]);
  });

  it("says in the notice of a second run that the sessions were already imported", async () => {
    const { p } = await importedVault();
    await p.run("import-palee-folder");
    clearNotices();
    await p.run("import-palee-folder");
    expect(importNotice()).toContain("3 already imported");
  });

  it("keeps a draft saved from the recovery modal saved exactly once when the folder is imported again", async () => {
    const { h, p } = await importedVault();
    await p.run("import-palee-folder");
    await recoverAction(DRAFT, "save");
    expect(draftPaths(h)).toEqual([]);
    expect(confirmedPaths(h).filter((path) => String(fieldsAt(h, path).absorbed_drafts) === DRAFT)).toHaveLength(1);

    await p.run("import-palee-folder");
    // The draft is copied again (it is no longer in the session folder), and reconcile moves it to the trash
    // as finished business instead of offering it: the session is saved exactly once.
    expect(confirmedPaths(h).filter((path) => String(fieldsAt(h, path).absorbed_drafts) === DRAFT)).toHaveLength(1);
    expect(draftPaths(h)).toEqual([]);
    expect(modals().filter((m) => m.constructor.name === "RecoveryModal")).toHaveLength(0);
  });

  it("never modifies or removes anything in .palee/", async () => {
    const { h, p } = await importedVault();
    const before = legacyFiles(h);
    await p.run("import-palee-folder");
    await recoverAction(DRAFT, "discard");
    await p.run("import-palee-folder");
    expect(legacyFiles(h)).toEqual(before);
    expect(h.trashed.map((t) => t.path)).toEqual([S(DRAFT)]);
    expect(h.deleted).toEqual([]);
    expect(h.events.filter((e) => e.includes(".palee/"))).toEqual([]);
  });

  it("leaves a different file with the same name alone, on both sides", async () => {
    const mine = confirmedText({ session_id: CONFIRMED, duration_minutes: 50 }, { summary: "My own edit" });
    const { h, p } = await importedVault({ [S(CONFIRMED)]: mine });
    const legacyBefore = legacyFiles(h);
    await p.run("import-palee-folder");
    expect(textAt(h, S(CONFIRMED))).toBe(mine);
    expect(legacyFiles(h)).toEqual(legacyBefore);
    expect(h.events).not.toContain(`modify ${S(CONFIRMED)}`);
    expect(importNotice()).toMatch(/^Imported 2 files into palee\/sessions\. Skipped 5: /);

    const report = await importPaleeFolder(h.app.vault.adapter, new ObsidianStore(h.app), layoutFor("palee"));
    expect(report.skipped).toContainEqual({
      path: `.palee/sessions/${CONFIRMED}.md`,
      reason: `palee/sessions/${CONFIRMED}.md exists with different content; left both alone`,
      kind: "differs",
    });
  });

  it("names a same-named file it left alone in its notice", async () => {
    const mine = confirmedText({ session_id: CONFIRMED, duration_minutes: 50 }, { summary: "My own edit" });
    const { p } = await importedVault({ [S(CONFIRMED)]: mine });
    await p.run("import-palee-folder");
    expect(importNotice()).toContain(
      `1 left alone because a different file of the same name is already there (.palee/sessions/${CONFIRMED}.md)`,
    );
  });

  it("imports into the configured session folder", async () => {
    const h = harness();
    seedLegacy(h);
    const p = await loadPlugin(h, { device: "laptop", data: { sessionFolder: "study/palee" } });
    await p.run("import-palee-folder");
    expect(confirmedPaths(h, "study/palee")).toHaveLength(2);
    expect(draftPaths(h, "study/palee")).toEqual([`study/palee/sessions/${DRAFT}.md`]);
    expect(fieldsAt(h, "study/palee/hot.md").last_session).toBe(CONFIRMED);
    expect(confirmedPaths(h)).toEqual([]);
  });
});

describe("importing without a .palee folder", () => {
  it("says that there is none, and writes nothing", async () => {
    const h = harness({ files: { "notes/a.md": "a\n" } });
    const p = await loadPlugin(h, { device: "laptop" });
    const before = h.files();
    const consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await p.run("import-palee-folder");
    } finally {
      consoleError.mockRestore();
    }
    expect(lastNotice()).toMatch(/^Could not import the \.palee folder: .*there is no \.palee folder in this vault/);
    expect(h.files()).toEqual(before);
    expect(h.events).toEqual([]);
    expect(modals()).toHaveLength(0);
  });

  it("does not call a missing .palee folder an unexpected error", async () => {
    const p = await loadPlugin(harness(), { device: "laptop" });
    const consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await p.run("import-palee-folder");
      // An ordinary situation, not a crash: a plain notice, nothing in the developer console.
      expect(lastNotice()).toBe("Could not import the .palee folder: there is no .palee folder in this vault");
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });
});

describe("importing the original PALEE tool's notes", () => {
  const ORIGINAL_ID = "S-20260809T131929-2dc9";
  const ORIGINAL = fs.readFileSync(path.join(__dirname, "..", "fixtures", "original", `${ORIGINAL_ID}.md`), "utf8");

  it("imports the original's example note as a session and rebuilds from it", async () => {
    const { h, p } = await importedVault({}, { [`.palee/sessions/${ORIGINAL_ID}.md`]: ORIGINAL });
    await p.run("import-palee-folder");
    expect(importNotice()).toBe("Imported 1 file into palee/sessions.");
    expect(textAt(h, S(ORIGINAL_ID))).toBe(ORIGINAL);
    expect(bodyAt(h, INDEX)).toContain(
      `Total sessions: 1\n\n- [[${ORIGINAL_ID}]] - Topic: T-general (2026-08-09, 0 min)\n`,
    );
    expect(fieldsAt(h, HOT)).toMatchObject({ last_session: ORIGINAL_ID, active_topic: "T-general" });
  });

  it("names every file the rebuild could not read as a session", async () => {
    const broken = "S-20260810T080000-0bad";
    const schema2 = "S-20260811T080000-0002";
    const { p } = await importedVault(
      {},
      {
        [`.palee/sessions/${ORIGINAL_ID}.md`]: ORIGINAL,
        [`.palee/sessions/${broken}.md`]: ORIGINAL.replace(
          'started_at: "2026-08-09T13:19:29.192Z"',
          'started_at: "yesterday"',
        ),
        [`.palee/sessions/${schema2}.md`]: ORIGINAL.replace("palee_schema: 1", "palee_schema: 2"),
      },
    );
    await p.run("import-palee-folder");
    expect(importNotice()).toBe(
      "Imported 3 files into palee/sessions. Not read as sessions: " +
        `palee/sessions/${broken}.md (started_at is missing or not a valid ISO 8601 timestamp); ` +
        `palee/sessions/${schema2}.md (unsupported palee_schema 2 (this version reads 1)).`,
    );
  });
});

describe("importing a .palee folder skips drafts a confirmed session already absorbed", () => {
  const DRAFT = "DRAFT-S-0000beef";
  const SAVED = "S-20260813T100000-abcd";

  it("does not copy the draft, and says '1 draft already saved'", async () => {
    const h = harness({
      files: { [S(SAVED)]: confirmedText({ session_id: SAVED, absorbed_drafts: [DRAFT] }, { summary: "Done" }) },
    });
    h.adapter.writeSync__(
      `.palee/sessions/${DRAFT}.md`,
      draftText({ session_id: DRAFT, device: "old-laptop" }, "Draft notes\n"),
    );
    expect(h.app.vault.getAbstractFileByPath(".palee")).toBeNull();
    const p = await loadPlugin(h, { device: "laptop" });
    h.resetLogs();
    await p.run("import-palee-folder");
    expect(lastNotice()).toBe("Imported 0 files into palee/sessions. Skipped 1: 1 draft already saved.");
    expect(draftPaths(h)).toEqual([]);
    expect(h.events.filter((e) => e.includes(DRAFT))).toEqual([]);
    expect(h.trashed).toEqual([]);
    expect(openModals()).toEqual([]);
  });
});

describe("importing a .palee folder whose own confirmed note absorbed one of its drafts", () => {
  it("does not copy the draft (then trash it as finished business)", async () => {
    const DRAFT = "DRAFT-S-0000beef";
    const SAVED = "S-20260813T100000-abcd";
    const h = harness();
    // The CLI on a .palee layout crashed between writing the confirmed note and trashing the draft.
    h.adapter.writeSync__(
      `.palee/sessions/${SAVED}.md`,
      confirmedText({ session_id: SAVED, absorbed_drafts: [DRAFT] }, { summary: "Done" }),
    );
    h.adapter.writeSync__(
      `.palee/sessions/${DRAFT}.md`,
      draftText({ session_id: DRAFT, device: "old-laptop" }, "Draft notes\n"),
    );
    const p = await loadPlugin(h, { device: "laptop" });
    await p.run("import-palee-folder");
    // Pins that the absorbed draft is skipped. It used to say "Imported 2 files into palee/sessions.": the draft
    // was copied, then trashed by the recovery check that followed ("… was already saved in S-…").
    expect(noticeLog().find((n) => n.startsWith("Imported"))).toBe(
      "Imported 1 file into palee/sessions. Skipped 1: 1 draft already saved.",
    );
    expect(h.trashed).toEqual([]);
  });
});
