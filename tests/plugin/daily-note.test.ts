/**
 * The daily-note line (contract §5): after an end or a recovery Save, one line under the heading of the daily
 * note of the session's start day, through Vault.process (the editor when the note is open); only the real
 * daily note, never a same-named note elsewhere; off by default; one notice when daily notes are not set up;
 * a failure never fails the end.
 */
import { confirmedIds, S, startOn, fieldsAt as fields, HOT, textAt as text } from "./support/session-files";
import { DAILY_TEMPLATE, installDailyNotes, uninstallDailyNotes } from "./support/daily-notes-stub";
import { openInEditor } from "./support/editor-model";
import type { ObsidianHarness } from "./support/obsidian-harness";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  MINUTE,
  T0,
  clearNotices,
  harness,
  installPluginTestEnvironment,
  loadPlugin,
  noticeLog,
  recoverAction,
  settle,
  submitEnd,
} from "./support/plugin-harness";

installPluginTestEnvironment();
afterEach(uninstallDailyNotes);

const ON = { dailyNote: true };
const DAY = "journal/2026-08-14.md";

/** Starts on `topic` at T0 and ends from the end modal 42 minutes later; returns the session ID. */
async function studyAndEnd(p: LoadedPlugin, topic = "T-rust-ownership", startMinute = 0): Promise<string> {
  jest.setSystemTime(T0 + startMinute * MINUTE);
  await startOn(p, topic);
  jest.advanceTimersByTime(42 * MINUTE); // studying: the ticks fire (a jump of the clock alone is a sleep)
  await settle();
  await p.ribbon();
  await submitEnd("Moves", "Borrows");
  const ids = confirmedIds(p.h);
  return ids.find((id) => fields(p.h, S(id)).topic_id === topic) ?? "";
}

function processSpy(h: ObsidianHarness): jest.SpyInstance {
  return jest.spyOn(h.app.vault, "process");
}

describe("the daily-note line", () => {
  it("is off by default: ending a session touches no daily note", async () => {
    const h = harness();
    installDailyNotes(h, { core: { folder: "journal" } });
    const p = await loadPlugin(h, { device: "laptop" });
    await studyAndEnd(p);
    expect(h.app.vault.getFileByPath(DAY)).toBeNull();
  });

  it("creates the day's note from the user's template and adds the heading and the line", async () => {
    const h = harness();
    installDailyNotes(h, { core: { folder: "journal" } });
    const p = await loadPlugin(h, { device: "laptop", data: ON });
    const id = await studyAndEnd(p);
    expect(text(h, DAY)).toBe(`# 2026-08-14\n\n## Study sessions\n- 12:00–12:42 T-rust-ownership, 42 min [[${id}]]\n`);
    expect(noticeLog()).toEqual([
      "Session on T-rust-ownership started.",
      "Session on T-rust-ownership saved (42 min).",
    ]);
  });

  it(
    "inserts after the last line of the heading's section and changes nothing else, through " + "Vault.process",
    async () => {
      const h = harness({
        files: { [DAY]: "# Friday\n## Study sessions\n- 08:00–08:30 T-a, 30 min [[S-x]]\n\n## Mood\nfine  \n" },
      });
      installDailyNotes(h, { core: { folder: "journal" } });
      const p = await loadPlugin(h, { device: "laptop", data: { ...ON, dailyNoteHeading: "## Study sessions" } });
      const spy = processSpy(h);
      const id = await studyAndEnd(p);
      expect(text(h, DAY)).toBe(
        `# Friday\n## Study sessions\n- 08:00–08:30 T-a, 30 min [[S-x]]\n- 12:00–12:42 ` +
          `T-rust-ownership, 42 min [[${id}]]\n\n## Mood\nfine  \n`,
      );
      expect(spy.mock.calls.filter(([file]) => (file as { path: string }).path === DAY)).toHaveLength(1);
    },
  );

  it("finds the day's note moved into a subfolder of the daily folder instead of creating a second one", async () => {
    const moved = "journal/2026/2026-08-14.md";
    const h = harness({ files: { [moved]: "Moved\n", "elsewhere/2026-08-14.md": "Not a daily note\n" } });
    installDailyNotes(h, { core: { folder: "journal" } });
    const p = await loadPlugin(h, { device: "laptop", data: ON });
    const id = await studyAndEnd(p);
    expect(text(h, moved)).toBe(`Moved\n\n## Study sessions\n- 12:00–12:42 T-rust-ownership, 42 min [[${id}]]\n`);
    expect(h.app.vault.getFileByPath(DAY)).toBeNull();
    expect(text(h, "elsewhere/2026-08-14.md")).toBe("Not a daily note\n");
  });

  it("uses the heading setting", async () => {
    const h = harness({ files: { [DAY]: "Notes\n" } });
    installDailyNotes(h, { core: { folder: "journal" } });
    const p = await loadPlugin(h, { device: "laptop", data: { ...ON, dailyNoteHeading: "Learning" } });
    const id = await studyAndEnd(p);
    expect(text(h, DAY)).toBe(`Notes\n\n## Learning\n- 12:00–12:42 T-rust-ownership, 42 min [[${id}]]\n`);
  });

  it("follows Periodic Notes' daily settings when they are on", async () => {
    const h = harness();
    installDailyNotes(h, { core: { folder: "journal" }, periodic: { folder: "periodic", format: "YYYY/MM/DD-ddd" } });
    const p = await loadPlugin(h, { device: "laptop", data: ON });
    const id = await studyAndEnd(p);
    expect(h.app.vault.getFileByPath(DAY)).toBeNull();
    expect(text(h, "periodic/2026/08/14-Fri.md")).toContain(`- 12:00–12:42 T-rust-ownership, 42 min [[${id}]]`);
  });

  it("writes a hostile topic as escaped text on one line", async () => {
    const hostile = "T-x]] <img src=x onerror=alert(1)> [[evil";
    const h = harness({ files: { "Hostile.md": `---\npalee_id: ${JSON.stringify(hostile)}\n---\n` } });
    installDailyNotes(h, { core: { folder: "journal" } });
    const p = await loadPlugin(h, { device: "laptop", data: ON });
    const id = await studyAndEnd(p, hostile);
    const lines = text(h, DAY)
      .split("\n")
      .filter((l) => l.startsWith("- "));
    expect(lines).toHaveLength(1);
    // Markdown shows escaped characters as text: no tag, and the only link is the session's.
    expect(lines[0]).toBe(
      String.raw`- 12:00–12:42 T-x\]\] \<img src\=x onerror\=alert\(1\)\> \[\[evil, 42 min [[${id}]]`,
    );
    expect(lines[0].match(/(?<!\\)\[\[/g)).toHaveLength(1);
  });

  it("says once that daily notes are not set up, and writes nothing", async () => {
    const h = harness();
    installDailyNotes(h, {});
    const p = await loadPlugin(h, { device: "laptop", data: ON });
    const before = Object.keys(h.files()).filter((f) => !f.startsWith("palee/"));
    await studyAndEnd(p, "T-one", 0);
    await studyAndEnd(p, "T-two", 60);
    const told = noticeLog().filter((n) => n.startsWith("Daily notes are not set up"));
    expect(told).toHaveLength(1);
    expect(Object.keys(h.files()).filter((f) => !f.startsWith("palee/"))).toEqual(before);
  });

  it("reports a failure in a notice, after the session is saved", async () => {
    const h = harness({ files: { [DAY]: "x\n" } });
    installDailyNotes(h, { core: { folder: "journal" } });
    const p = await loadPlugin(h, { device: "laptop", data: ON });
    const real = h.app.vault.process.bind(h.app.vault);
    jest
      .spyOn(h.app.vault, "process")
      .mockImplementation((file, fn, options) =>
        file.path === DAY ? Promise.reject(new Error("disk full")) : real(file, fn, options),
      );
    const id = await studyAndEnd(p);
    expect(id).toMatch(/^S-/);
    expect(fields(h, HOT).open_draft).toBeNull();
    expect(noticeLog()).toEqual([
      "Session on T-rust-ownership started.",
      "Session on T-rust-ownership saved (42 min).",
      "Session on T-rust-ownership saved, but it could not be added to the daily note: disk full",
    ]);
    expect(text(h, DAY)).toBe("x\n");
  });

  it("is added when an interrupted session is saved from the recovery modal, on the day it started", async () => {
    const h = harness();
    installDailyNotes(h, { core: { folder: "journal" } });
    let p = await loadPlugin(h, { device: "laptop", data: ON });
    const draftId = await startOn(p);
    jest.advanceTimersByTime(20 * MINUTE);
    await settle();
    await p.run("save-checkpoint");
    p.unload();
    jest.setSystemTime(T0 + 14 * 60 * MINUTE); // next day, 02:00
    clearNotices();
    p = await loadPlugin(h, { device: "laptop", data: ON });
    await recoverAction(draftId, "save");
    const [id] = confirmedIds(h);
    expect(text(h, DAY)).toContain(`- 12:00–12:20 T-rust-ownership, 20 min [[${id}]]`);
    expect(h.app.vault.getFileByPath("journal/2026-08-15.md")).toBeNull();
    expect(h.app.vault.getFileByPath(DAILY_TEMPLATE)).not.toBeNull();
  });
});

describe("which note gets the daily-note line", () => {
  it("never takes a same-named note outside the daily folder when the folder is the vault root", async () => {
    const h = harness({ files: { "Meetings/2026-08-14.md": "Standup\n" } });
    installDailyNotes(h, { core: {} });
    const p = await loadPlugin(h, { device: "laptop", data: ON });
    const id = await studyAndEnd(p);
    expect(text(h, "Meetings/2026-08-14.md")).toBe("Standup\n");
    expect(text(h, "2026-08-14.md")).toContain(`- 12:00–12:42 T-rust-ownership, 42 min [[${id}]]`);
  });

  it("never takes a note in the daily folder whose name only looks like the day in another format", async () => {
    const h = harness({ files: { "journal/old/14-08-2026.md": "Other\n" } });
    installDailyNotes(h, { core: { folder: "journal", format: "YYYY-MM-DD" } });
    const p = await loadPlugin(h, { device: "laptop", data: ON });
    await studyAndEnd(p);
    expect(text(h, "journal/old/14-08-2026.md")).toBe("Other\n");
    expect(text(h, DAY)).toContain("## Study sessions");
  });

  it("inserts through the editor when the daily note is open, keeping the learner's unsaved typing", async () => {
    const h = harness({ files: { [DAY]: "# Friday\n" } });
    installDailyNotes(h, { core: { folder: "journal" } });
    const p = await loadPlugin(h, { device: "laptop", data: ON });
    const editor = openInEditor(h, DAY);
    editor.typeAtEnd("Call the dentist\n");
    const process = processSpy(h);
    const id = await studyAndEnd(p);
    const line = `- 12:00–12:42 T-rust-ownership, 42 min [[${id}]]`;
    expect(editor.buffer()).toBe(`# Friday\nCall the dentist\n\n## Study sessions\n${line}\n`);
    expect(text(h, DAY)).toBe(editor.buffer());
    expect(editor.reloads()).toBe(0);
    expect(process.mock.calls.filter(([file]) => (file as { path: string }).path === DAY)).toHaveLength(0);
  });
});
