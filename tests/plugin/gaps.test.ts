/**
 * Second review of the plugin. Part A pins behaviours the review fixes introduced (each test can fail: it
 * checks what the learner sees and what is written). Part B pins bugs found in the second review; each test
 * is named after the behaviour that should hold, and its "Observed" comment describes what happens instead.
 */
import type { PluginSettingTab } from "obsidian";
import { confirmedText, draftText, hotText } from "../support/builders";
import type { ObsidianHarness } from "./support/obsidian-harness";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  MINUTE,
  T0,
  clearNotices,
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  noticeLog,
  pickTopic,
  recoverAction,
  recoveryModal,
  recoveryRows,
  settle,
  submitEnd,
  type,
} from "./support/plugin-harness";
import {
  at,
  confirmedIds,
  confirmedPaths,
  draftIds,
  draftPaths,
  fieldsAt,
  HOT,
  isTopic,
  openModals,
  S,
  startOn,
  statusText,
  textAt,
} from "./support/session-files";

installPluginTestEnvironment();

/** Advances the fake clock one tick (1 s) at a time, letting each tick's work finish. */
async function tickFor(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    jest.advanceTimersByTime(1000);
    await settle();
  }
}

const PHONE = "DRAFT-S-0000aaaa";
const phoneHot = (started = 0): string =>
  hotText({ active_topic: "T-rust-ownership", started_at: at(started), open_draft: PHONE, device: "phone" });
const phoneDraft = (started = 0, lastSeen = 0): string =>
  draftText({ session_id: PHONE, started_at: at(started), last_checkpoint_at: at(lastSeen), device: "phone" }, "Phone notes\n");

// =========================================================================================================
// Part A — behaviours of the review fixes
// =========================================================================================================

describe("A1 importing a .palee folder skips drafts a confirmed session already absorbed", () => {
  const DRAFT = "DRAFT-S-0000beef";
  const SAVED = "S-20260813T100000-abcd";

  it("does not copy the draft, and says '1 draft already saved'", async () => {
    const h = harness({
      files: { [S(SAVED)]: confirmedText({ session_id: SAVED, absorbed_drafts: [DRAFT] }, { summary: "Done" }) },
    });
    h.adapter.writeSync__(`.palee/sessions/${DRAFT}.md`, draftText({ session_id: DRAFT, device: "old-laptop" }, "Draft notes\n"));
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

// ---- settings --------------------------------------------------------------------------------------------

function settingTab(p: LoadedPlugin): PluginSettingTab {
  const tabs = (p.plugin as unknown as { settingTabs__: PluginSettingTab[] }).settingTabs__;
  if (tabs.length !== 1) throw new Error(`expected one settings tab, found ${tabs.length}`);
  return tabs[0];
}

/** The text field and the error line of the settings row called `name`. */
function settingRow(tab: PluginSettingTab, name: string): { input: HTMLInputElement; error: HTMLElement } {
  for (const el of Array.from(tab.containerEl.querySelectorAll<HTMLElement>("div"))) {
    const named = Array.from(el.children).some((child) => child.children.length === 2 && child.children[0].textContent === name);
    if (!named) continue;
    const input = el.querySelector("input");
    const error = el.querySelector<HTMLElement>(".palee-setting-error");
    if (input && error) return { input, error };
  }
  throw new Error(`no settings row "${name}"`);
}

async function typeSetting(tab: PluginSettingTab, name: string, value: string): Promise<string> {
  const r = settingRow(tab, name);
  type(r.input, value);
  await settle();
  return r.error.textContent ?? "";
}

describe("A2 the checkpoint interval must be shorter than the grace period", () => {
  it("refuses an interval equal to the grace period, with the explanation, and saves nothing", async () => {
    const p = await loadPlugin(harness(), { device: "laptop", data: { graceMinutes: 15 } });
    const tab = settingTab(p);
    tab.display();
    expect(await typeSetting(tab, "Checkpoint interval", "15")).toBe(
      "The checkpoint interval (15 min) must be shorter than the recovery grace period (15 min), or other devices would take a running session for an interrupted one.",
    );
    expect(p.saved()).toEqual({ graceMinutes: 15 });
    expect(await typeSetting(tab, "Checkpoint interval", "20")).toMatch(/must be shorter than the recovery grace period \(15 min\)/);
    expect(p.saved()).toEqual({ graceMinutes: 15 });
    // A valid one is then accepted and clears the explanation.
    expect(await typeSetting(tab, "Checkpoint interval", "14")).toBe("");
    expect((p.saved() as Record<string, unknown>).checkpointMinutes).toBe(14);
  });

  it("refuses a grace period equal to or shorter than the interval, and saves nothing", async () => {
    const p = await loadPlugin(harness(), { device: "laptop", data: { checkpointMinutes: 10 } });
    const tab = settingTab(p);
    tab.display();
    expect(await typeSetting(tab, "Recovery grace period", "10")).toBe(
      "The checkpoint interval (10 min) must be shorter than the recovery grace period (10 min), or other devices would take a running session for an interrupted one.",
    );
    expect(await typeSetting(tab, "Recovery grace period", "7")).toMatch(/^The checkpoint interval \(10 min\) must be shorter than the recovery grace period \(7 min\)/);
    expect(p.saved()).toEqual({ checkpointMinutes: 10 });
    expect(await typeSetting(tab, "Recovery grace period", "11")).toBe("");
    expect((p.saved() as Record<string, unknown>).graceMinutes).toBe(11);
  });

  it("allows any grace period when automatic checkpoints are off (interval 0)", async () => {
    const p = await loadPlugin(harness(), { device: "laptop", data: { checkpointMinutes: 0 } });
    const tab = settingTab(p);
    tab.display();
    expect(await typeSetting(tab, "Recovery grace period", "1")).toBe("");
    expect((p.saved() as Record<string, unknown>).graceMinutes).toBe(1);
  });

  it("loads data.json with an interval of 30 and a grace period of 15 as the defaults (5 and 15), and checkpoints every 5 minutes", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop", data: { checkpointMinutes: 30, graceMinutes: 15 } });
    const tab = settingTab(p);
    tab.display();
    expect(settingRow(tab, "Checkpoint interval").input.value).toBe("5");
    expect(settingRow(tab, "Recovery grace period").input.value).toBe("15");
    const draftId = await startOn(p);
    await tickFor(5 * MINUTE);
    expect(fieldsAt(h, S(draftId)).last_checkpoint_at).toBe(at(5));
  });
});

// ---- the status bar follows sync ---------------------------------------------------------------------------

describe("A3 the status bar follows what sync delivers", () => {
  it("shows a session started on the phone when its draft arrives before hot.md", async () => {
    const h = harness({ files: { [HOT]: hotText() } });
    const p = await loadPlugin(h, { device: "laptop" });
    expect(statusText(p)).toBe("Start session");
    h.write(S(PHONE), phoneDraft());
    await settle();
    h.write(HOT, phoneHot());
    await settle();
    jest.advanceTimersByTime(7_000);
    expect(statusText(p)).toBe("T-rust-ownership 0:00:07 (on phone)");
    expect(p.available("end-session")).toBe(false);
  });

  it("shows a session started on the phone when hot.md arrives before its draft", async () => {
    const h = harness({ files: { [HOT]: hotText() } });
    const p = await loadPlugin(h, { device: "laptop" });
    h.write(HOT, phoneHot());
    await settle();
    h.write(S(PHONE), phoneDraft());
    await settle();
    jest.advanceTimersByTime(65_000);
    expect(statusText(p)).toBe("T-rust-ownership 0:01:05 (on phone)");
  });

  it("keeps 'Start session' when sync deletes hot.md while nothing is open", async () => {
    const h = harness({ files: { [HOT]: hotText() } });
    const p = await loadPlugin(h, { device: "laptop" });
    await h.remove(HOT);
    await settle();
    jest.advanceTimersByTime(5_000);
    await settle();
    expect(statusText(p)).toBe("Start session");
    expect(p.available("open-session-note")).toBe(false);
    expect(noticeLog()).toEqual([]);
  });

  it("returns to 'Start session' when the phone ends its session (confirmed note, draft deleted, new hot.md)", async () => {
    const SAVED = "S-20260814T114000-beef";
    const h = harness({ files: { [HOT]: phoneHot(-20), [S(PHONE)]: phoneDraft(-20, -2) } });
    const p = await loadPlugin(h, { device: "laptop" });
    expect(statusText(p)).toBe("T-rust-ownership 0:20:00 (on phone)");
    expect(p.available("open-session-note")).toBe(true);
    jest.advanceTimersByTime(MINUTE);
    h.write(
      S(SAVED),
      confirmedText(
        { session_id: SAVED, started_at: at(-20), ended_at: at(1), duration_minutes: 21, absorbed_drafts: [PHONE] },
        { summary: "Phone summary" },
      ),
    );
    await h.remove(S(PHONE));
    h.write(HOT, hotText({ active_topic: "T-rust-ownership", last_session: SAVED }));
    await settle();
    jest.advanceTimersByTime(1_000);
    expect(statusText(p)).toBe("Start session");
    expect(p.available("end-session")).toBe(false);
    expect(p.available("open-session-note")).toBe(false);
  });
});

// ---- unload before layout ready ------------------------------------------------------------------------------

describe("A4 a plugin disabled before the workspace is ready", () => {
  it("never starts its timer or its start-up check once the layout becomes ready", async () => {
    const LIVE = "DRAFT-S-0000000b";
    const OLD = "DRAFT-S-0000000a";
    const h = harness({
      files: {
        [HOT]: hotText({ active_topic: "T-rust-ownership", started_at: at(-10), open_draft: LIVE, device: "laptop" }),
        [S(LIVE)]: draftText({ session_id: LIVE, started_at: at(-10), last_checkpoint_at: at(-2) }, "Notes\n"),
        [S(OLD)]: draftText({ session_id: OLD, topic_id: "T-traits", started_at: at(-300), last_checkpoint_at: at(-280) }),
      },
    });
    const before = h.files();
    const p = await loadPlugin(h, { device: "laptop", layoutReady: false });
    p.unload();
    h.mock.workspace.setLayoutReady__();
    await settle();
    jest.advanceTimersByTime(30 * MINUTE);
    await settle();
    expect(h.files()).toEqual(before);
    expect(h.events).toEqual([]);
    expect(openModals()).toEqual([]);
    expect(noticeLog()).toEqual([]);
  });
});

// ---- the recovery modal re-checks a draft before Discard / Resume --------------------------------------------

describe("A5 the recovery modal re-checks a draft before acting on it", () => {
  const D = "DRAFT-S-0000dddd";
  /** The laptop's interrupted session (10:30–11:00) in the modal; then the phone resumes it (sync). */
  async function resumedOnPhoneMeanwhile(): Promise<ObsidianHarness> {
    const h = harness({
      files: {
        [HOT]: hotText({ active_topic: "T-rust-ownership", started_at: at(-90), open_draft: D, device: "laptop" }),
        [S(D)]: draftText({ session_id: D, started_at: at(-90), last_checkpoint_at: at(-60), device: "laptop" }, "Notes\n"),
      },
    });
    await loadPlugin(h, { device: "laptop" });
    expect(recoveryRows()[0].text).toContain("On laptop · started 10:30 · last seen 11:00");
    jest.setSystemTime(T0 + 10 * MINUTE);
    h.write(S(D), draftText({ session_id: D, started_at: at(-90), last_checkpoint_at: at(10), device: "phone" }, "Notes\nFrom the phone\n"));
    h.write(HOT, hotText({ active_topic: "T-rust-ownership", started_at: at(-90), open_draft: D, device: "phone" }));
    await settle();
    return h;
  }

  it("Discard: redraws the row as open on the phone and writes nothing; a second press discards", async () => {
    const h = await resumedOnPhoneMeanwhile();
    const before = h.files();
    h.resetLogs();
    clearNotices();
    await recoverAction(D, "discard");
    expect(h.files()).toEqual(before);
    expect(h.trashed).toEqual([]);
    expect(recoveryRows().map((r) => r.draftId)).toEqual([D]);
    expect(recoveryRows()[0].text).toContain("Open right now on phone");
    expect(lastNotice()).toMatch(/is now open on phone .*Press discard again/);
    await recoverAction(D, "discard");
    expect(h.trashed.map((t) => t.path)).toEqual([S(D)]);
    expect(draftIds(h)).toEqual([]);
    expect(openModals()).toEqual([]);
  });

  it("Resume: redraws the row as open on the phone and writes nothing; a second press resumes it here", async () => {
    const h = await resumedOnPhoneMeanwhile();
    const before = h.files();
    h.resetLogs();
    await recoverAction(D, "resume");
    expect(h.files()).toEqual(before);
    expect(recoveryRows()[0].text).toContain("Open right now on phone");
    await recoverAction(D, "resume");
    expect(fieldsAt(h, S(D)).device).toBe("laptop");
    expect(fieldsAt(h, HOT)).toMatchObject({ open_draft: D, device: "laptop" });
    expect(textAt(h, S(D))).toContain("From the phone");
  });
});

// ---- serialized calls ------------------------------------------------------------------------------------------

describe("A6 plugin calls are serialized", () => {
  /** Holds the first vault.process of `path` until `release()` (a slow disk, a large vault). */
  function holdFirstProcess(h: ObsidianHarness, path: string): { release: () => void } {
    const vault = h.app.vault;
    const original = vault.process.bind(vault);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    vault.process = async (file, fn, opts) => {
      if (!held && file.path === path) {
        held = true;
        await gate;
      }
      return original(file, fn, opts);
    };
    return { release: () => release() };
  }

  it("an automatic checkpoint due at the moment the learner ends produces one confirmed note, no extra draft, no error", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop", data: { askForSummary: false } });
    const draftId = await startOn(p);
    jest.setSystemTime(T0 + 10 * MINUTE); // the 5-minute checkpoint is due on the next tick
    const slow = holdFirstProcess(h, S(draftId)); // the checkpoint's write of the draft takes a while
    clearNotices();
    await Promise.all([
      (async () => {
        jest.advanceTimersByTime(1_000); // the interval fires first…
      })(),
      p.run("end-session"), // …and the learner ends in the same tick
    ]);
    slow.release();
    await settle();
    await settle();
    expect(confirmedIds(h)).toHaveLength(1);
    expect(fieldsAt(h, confirmedPaths(h)[0])).toMatchObject({ absorbed_drafts: [draftId], duration_minutes: 10 });
    expect(draftIds(h)).toEqual([]);
    expect(noticeLog()).toEqual(["Session on T-rust-ownership saved (10 min)."]);
    expect(statusText(p)).toBe("Start session");
  });

  it("the same when the end is asked first and the interval fires in the same tick", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop", data: { askForSummary: false } });
    await startOn(p);
    jest.setSystemTime(T0 + 10 * MINUTE);
    clearNotices();
    await Promise.all([
      p.run("end-session"),
      (async () => {
        jest.advanceTimersByTime(1_000);
      })(),
    ]);
    await settle();
    expect(confirmedIds(h)).toHaveLength(1);
    expect(draftIds(h)).toEqual([]);
    expect(noticeLog()).toEqual(["Session on T-rust-ownership saved (10 min)."]);
  });

  it("a status refresh (asked by a vault event) that started before the end never lands after it", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop", data: { askForSummary: false } });
    const draftId = await startOn(p);
    jest.setSystemTime(T0 + 10 * MINUTE);
    // The refresh's read of the draft is slow: it returns the draft as it was when the read began.
    const vault = h.app.vault;
    const read = vault.read.bind(vault);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    vault.read = async (file) => {
      const text = await read(file);
      if (!held && file.path === S(draftId)) {
        held = true;
        await gate;
      }
      return text;
    };
    h.write(S(draftId), `${textAt(h, S(draftId))}My notes\n`); // the learner types in the session note
    await settle();
    await p.run("end-session");
    release();
    await settle();
    await settle();
    expect(confirmedIds(h)).toHaveLength(1);
    expect(statusText(p)).toBe("Start session");
    expect(p.available("end-session")).toBe(false);
  });
});

// =========================================================================================================
// Part B — bugs found in the second review (each fails today; "Observed" says what happens instead)
// =========================================================================================================

describe("hot.md of another schema under this device's running session", () => {
  it("checkpoints automatically once per interval, not on every one-second tick", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const draftId = await startOn(p);
    await tickFor(MINUTE);
    // Another version of the plugin (or the learner) rewrote hot.md with palee_schema 2: the core leaves it
    // alone, so no checkpoint can repair the pointer.
    h.write(HOT, hotText({ palee_schema: 2, active_topic: "T-rust-ownership", open_draft: draftId, started_at: at(0), device: "laptop" }));
    await settle();
    h.resetLogs();
    await tickFor(6 * MINUTE); // 12:01 → 12:07: one checkpoint is due (12:05)
    const writes = h.events.filter((e) => e === `modify ${S(draftId)}`).length;
    // Observed: 121 writes of the draft — one every second from 12:05 on. The controller keeps its old state
    // (hot.md is not ok) without the new last checkpoint, so a checkpoint is "due" on every tick.
    expect(writes).toBe(1);
    expect(statusText(p)).toBe("T-rust-ownership 0:07:00");
  });
});

describe("a session saved outside this app while hot.md cannot be read", () => {
  it("leaves the status bar once its draft was absorbed by a confirmed note and removed", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const draftId = await startOn(p);
    await tickFor(2 * MINUTE);
    h.write(HOT, hotText({ palee_schema: 2, active_topic: "T-rust-ownership", open_draft: draftId, started_at: at(0), device: "laptop" }));
    await settle();
    // `PALEE_DEVICE=laptop palee session end --topic T-rust-ownership` in a terminal (or the session saved on
    // another device, synced): the confirmed note absorbs the draft, the draft goes, hot.md is left alone
    // (another schema).
    const SAVED = "S-20260814T120000-cafe";
    h.write(
      S(SAVED),
      confirmedText({ session_id: SAVED, started_at: at(0), ended_at: at(3), duration_minutes: 3, absorbed_drafts: [draftId] }, { summary: "Done" }),
    );
    await h.remove(S(draftId));
    h.catchUpCache();
    await settle();
    await tickFor(10 * MINUTE);
    clearNotices();
    // Observed: "T-rust-ownership 0:12:00" and counting, End available; End then says "Could not end the
    // session: no session is open." while the timer keeps running; and every one-second tick runs a failed
    // automatic checkpoint (a full scan: ~180 file reads a minute), silently, for as long as Obsidian is open.
    expect({ status: statusText(p), endable: p.available("end-session") }).toEqual({ status: "Start session", endable: false });
  });
});

describe("ending while hot.md is missing and the session's own draft cannot be read", () => {
  it("never records an older interrupted draft of the same topic (left alone by the learner) instead", async () => {
    const YESTERDAY = "DRAFT-S-0000000c";
    const h = harness({
      files: {
        [HOT]: hotText(),
        [S(YESTERDAY)]: draftText(
          { session_id: YESTERDAY, started_at: "2026-08-13T09:00:00+00:00", last_checkpoint_at: "2026-08-13T09:20:00+00:00" },
          "Yesterday's notes\n",
        ),
      },
    });
    const p = await loadPlugin(h, { device: "laptop", data: { askForSummary: false } });
    recoveryModal().close(); // left for later
    await p.ribbon();
    await pickTopic("T-rust-ownership", isTopic("T-rust-ownership"));
    recoveryModal().close(); // offered again on start: left for later again, the start goes on
    await settle();
    const today = fieldsAt(h, HOT).open_draft as string;
    await tickFor(2 * MINUTE);
    await h.remove(HOT); // deleted by the learner or by sync
    // The learner is typing in the session note's properties: for a moment its YAML does not parse.
    h.write(S(today), textAt(h, S(today)).replace("status: draft", "status: [draft"));
    await settle();
    jest.setSystemTime(T0 + 30 * MINUTE);
    clearNotices();
    await p.run("end-session");
    // Observed: "Session on T-rust-ownership saved (1650 min)." — S-20260813T090000-…, outcome completed,
    // absorbed_drafts [DRAFT-S-0000000c], 09:00 yesterday to 12:30 today: yesterday's interrupted draft is
    // recorded as a 27-hour session and trashed; today's session vanishes from the status bar.
    expect({ confirmed: confirmedIds(h), drafts: draftIds(h).sort() }).toEqual({ confirmed: [], drafts: [YESTERDAY, today].sort() });
    expect(lastNotice()).toMatch(/cannot be read/);
  });
});

describe("a checkpoint while hot.md is missing and the session's draft cannot be read", () => {
  it("says that the draft cannot be read, not that no session is open (the status bar shows it running)", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const draftId = await startOn(p);
    await h.remove(HOT);
    h.write(S(draftId), textAt(h, S(draftId)).replace("status: draft", "status: [draft") + "My notes\n");
    await settle();
    jest.advanceTimersByTime(3 * MINUTE);
    clearNotices();
    await p.run("save-checkpoint");
    // Observed: "Could not save the checkpoint: no session is open." while the status bar shows
    // "T-rust-ownership 0:03:00" (the fix for this message covers only an ok hot.md).
    expect(statusText(p)).toBe("T-rust-ownership 0:03:00");
    expect(lastNotice()).toMatch(/cannot be read/);
  });
});

describe("the learner renames the open session's note (Obsidian's inline title)", () => {
  it("is told that the session lost its note, instead of the session ending silently", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const draftId = await startOn(p);
    await p.run("open-session-note");
    const file = h.app.vault.getFileByPath(S(draftId));
    if (!file) throw new Error("no draft");
    clearNotices();
    await h.app.fileManager.renameFile(file, "palee/sessions/Ownership notes.md");
    await settle();
    await tickFor(6 * MINUTE); // the next automatic checkpoint
    // Observed: no notice at all; the checkpoint's reconcile closes hot.md's pointer (its draft "no longer
    // exists"), the status bar goes back to "Start session", and the renamed note is from now on skipped as
    // "not a session file name": the session is neither running nor recoverable, without a word.
    expect(noticeLog().join("\n")).toMatch(/Ownership notes/);
  });
});

describe("a plugin disabled while its start-up check is running", () => {
  it("opens no recovery modal and shows no notice after it was disabled", async () => {
    const OLD = "DRAFT-S-0000000a";
    const h = harness({
      files: {
        [HOT]: hotText(),
        [S(OLD)]: draftText({ session_id: OLD, topic_id: "T-traits", started_at: at(-300), last_checkpoint_at: at(-280) }),
      },
    });
    const p = await loadPlugin(h, { device: "laptop", layoutReady: false });
    h.mock.workspace.setLayoutReady__(); // the start-up check begins (async)
    p.plugin.unload(); // the learner disables the plugin meanwhile
    await settle();
    // Observed: the recovery modal of the disabled plugin opens; its buttons still save, discard or resume.
    expect(openModals()).toEqual([]);
  });
});

describe("automatic checkpoints while the end modal is open", () => {
  it("keep coming: the session is still open while the learner writes the summary", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const draftId = await startOn(p);
    await p.run("end-session");
    expect(openModals()).toEqual(["EndSessionModal"]);
    await tickFor(16 * MINUTE); // a long summary
    // Observed: last_checkpoint_at stays 12:00 — no checkpoint while the modal is open, so after 15 minutes
    // other devices take the session for an interrupted one (and offer to save it), and a crash now would
    // record it only up to 12:00.
    expect(fieldsAt(h, S(draftId)).last_checkpoint_at).toBe(at(15));
    await submitEnd("Summary", "Next");
    expect(confirmedIds(h)).toHaveLength(1);
  });
});

describe("the end modal submitted after the session was saved elsewhere", () => {
  it("tells the learner that the session was already saved and that the summary they typed was not recorded", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const draftId = await startOn(p);
    jest.setSystemTime(T0 + 20 * MINUTE);
    await p.run("end-session"); // the learner starts writing the summary
    // Meanwhile (no checkpoint for 20 minutes: the laptop looks interrupted) the learner pressed Save on the
    // phone's recovery modal; sync delivers the phone's writes.
    const SAVED = "S-20260814T120000-0ace";
    h.write(
      S(SAVED),
      confirmedText({ session_id: SAVED, started_at: at(0), ended_at: at(0), duration_minutes: 0, outcome: "interrupted", absorbed_drafts: [draftId] }),
    );
    await h.remove(S(draftId));
    h.write(HOT, hotText({ active_topic: "T-rust-ownership", last_session: SAVED }));
    await settle();
    clearNotices();
    await submitEnd("Ownership moves values; borrows lend them.", "Lifetimes");
    // Observed: "Could not end the session: no session is open." — the summary is gone, and the learner is
    // told there was no session although it was saved (as a 0-minute interrupted one).
    expect(noticeLog().join("\n")).toMatch(/already saved/);
    expect(noticeLog().join("\n")).toMatch(/not recorded/);
  });
});

describe("sync delivers the phone's resume of this device's interrupted session, draft first", () => {
  it("does not take the session for this device's own running session in the meantime", async () => {
    const D = "DRAFT-S-0000dddd";
    const h = harness({
      files: {
        [HOT]: hotText({ active_topic: "T-rust-ownership", started_at: at(-90), open_draft: D, device: "laptop" }),
        [S(D)]: draftText({ session_id: D, started_at: at(-90), last_checkpoint_at: at(-60), device: "laptop" }, "Notes\n"),
      },
    });
    const p = await loadPlugin(h, { device: "laptop" });
    recoveryModal().close(); // left for later
    expect(statusText(p)).toBe("T-rust-ownership (interrupted)");
    jest.setSystemTime(T0 + 10 * MINUTE);
    // The phone resumed it: the draft (device: phone, checkpointed now) syncs first; hot.md follows later.
    h.write(S(D), draftText({ session_id: D, started_at: at(-90), last_checkpoint_at: at(10), device: "phone" }, "Notes\nFrom the phone\n"));
    await settle();
    // Observed: "T-rust-ownership 1:40:00" with End and Save checkpoint available — the laptop adopts the
    // phone's session as its own (it judges "mine" by hot.md's device only, and adds it to its live set for good).
    expect({ endable: p.available("end-session"), checkpointable: p.available("save-checkpoint") }).toEqual({ endable: false, checkpointable: false });
    expect(statusText(p)).toMatch(/\(on phone\)$/);
  });
});

describe("a session of the phone whose hot.md syncs before its draft", () => {
  it("is not shown as interrupted, and a click on Start before the draft arrives does not close the phone's session", async () => {
    const h = harness({ files: { [HOT]: hotText() } });
    const p = await loadPlugin(h, { device: "laptop" });
    // The laptop was offline; the phone started a session 30 minutes ago. Sync delivers hot.md first.
    h.write(HOT, phoneHot(-30));
    await settle();
    const shown = statusText(p);
    clearNotices();
    await p.run("start-session"); // the learner clicks before the draft arrives
    h.write(S(PHONE), phoneDraft(-30, -1));
    await settle();
    // Observed: "T-rust-ownership (interrupted)"; Start then says "… cannot be recovered here yet: its draft
    // is not readable." and its recovery check (reconcile) closes the phone's pointer in hot.md (open_draft
    // null), which syncs back to the phone: its running session disappears there and here.
    expect({ shown, pointer: fieldsAt(h, HOT).open_draft, after: statusText(p) }).toEqual({
      shown: "T-rust-ownership 0:30:00 (on phone)",
      pointer: PHONE,
      after: "T-rust-ownership 0:30:00 (on phone)",
    });
  });
});

describe("importing a .palee folder whose own confirmed note absorbed one of its drafts", () => {
  it("does not copy the draft (then trash it as finished business)", async () => {
    const DRAFT = "DRAFT-S-0000beef";
    const SAVED = "S-20260813T100000-abcd";
    const h = harness();
    // The CLI on a .palee layout crashed between writing the confirmed note and trashing the draft.
    h.adapter.writeSync__(`.palee/sessions/${SAVED}.md`, confirmedText({ session_id: SAVED, absorbed_drafts: [DRAFT] }, { summary: "Done" }));
    h.adapter.writeSync__(`.palee/sessions/${DRAFT}.md`, draftText({ session_id: DRAFT, device: "old-laptop" }, "Draft notes\n"));
    const p = await loadPlugin(h, { device: "laptop" });
    await p.run("import-palee-folder");
    // Observed: "Imported 2 files into palee/sessions." — the draft is copied, then moved to the trash by the
    // recovery check that follows ("… was already saved in S-…; moved it to the trash").
    expect(noticeLog().find((n) => n.startsWith("Imported"))).toBe("Imported 1 file into palee/sessions. Skipped 1: 1 draft already saved.");
    expect(h.trashed).toEqual([]);
  });
});

describe("the recovery modal's Save preview", () => {
  it("is drawn again before saving when the draft has changed since the row was drawn (Save records what was shown)", async () => {
    const D = "DRAFT-S-0000dddd";
    const h = harness({
      files: {
        [HOT]: hotText(),
        [S(D)]: draftText({ session_id: D, started_at: at(-90), last_checkpoint_at: at(-60), device: "phone" }, "Notes\n"),
      },
    });
    await loadPlugin(h, { device: "laptop" });
    expect(recoveryRows()[0].text).toContain("Save records 30 min");
    // Meanwhile the learner resumed it on the phone, studied until 12:10, and the phone went quiet.
    h.write(S(D), draftText({ session_id: D, started_at: at(-90), last_checkpoint_at: at(10), device: "phone" }, "Notes\nMore\n"));
    await settle();
    jest.setSystemTime(T0 + 40 * MINUTE);
    await recoverAction(D, "save"); // the row still says "Save records 30 min"
    // Observed: saved at once as a 100-minute session (10:30–12:10), not the 30 minutes the row showed; the
    // re-check before acting only asks whether the draft is alive elsewhere now.
    expect(confirmedPaths(h).map((path) => fieldsAt(h, path).duration_minutes)).toEqual([]);
    expect(recoveryRows()[0].text).toContain("Save records 100 min");
  });
});
