/**
 * Topics by name in the plugin (contract §5 version 4): wherever the plugin shows a topic it shows the name of
 * the note that has its palee_id — also for sessions another face started without recording `topic_note` — and
 * the ID only when no note has it; the plugin's log records `topic_note` as its start does.
 */
import { GoalsModal } from "../../src/plugin/ui/goals-modal";
import { LogSessionModal } from "../../src/plugin/ui/log-modal";
import { confirmedText, draftText, hotText } from "../support/builders";
import { installDailyNotes, uninstallDailyNotes } from "./support/daily-notes-stub";
import { openHistoryView } from "./support/history-view";
import {
  MINUTE,
  T0,
  buttonByText,
  click,
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  modals,
  pickTopic,
  recoveryRows,
  settle,
  submitEnd,
  type,
} from "./support/plugin-harness";
import { followLink, runCli } from "./support/doors";
import {
  HOT,
  S,
  confirmedIds,
  fieldsAt,
  onlyConfirmed,
  onlyDraft,
  startOn,
  statusText,
  textAt,
} from "./support/session-files";

installPluginTestEnvironment();
afterEach(uninstallDailyNotes);

const NOTE = "notes/Rust ownership.md";
const NOTE_TEXT = "---\npalee_id: T-rust-ownership\n---\nMoves and borrows.\n";
const DRAFT = "DRAFT-S-0000aaaa";
const PAST = "S-20260813T100000-abcd";

/** A session on T-rust-ownership that the CLI started on this device 5 minutes ago: no topic_note recorded. */
function startedByTheCli(): Record<string, string> {
  const startedAt = "2026-08-14T11:55:00+00:00";
  return {
    [NOTE]: NOTE_TEXT,
    [S(PAST)]: confirmedText({ session_id: PAST }),
    [S(DRAFT)]: draftText({ session_id: DRAFT, started_at: startedAt, last_checkpoint_at: startedAt }),
    [HOT]: hotText({ active_topic: "T-rust-ownership", started_at: startedAt, open_draft: DRAFT, device: "laptop" }),
  };
}

describe("a session another face started, with no topic_note recorded", () => {
  it("is shown by its note's name: status bar, status, checkpoint, pause, end dialog and notice", async () => {
    const p = await loadPlugin(harness({ files: startedByTheCli() }), { device: "laptop" });
    expect(statusText(p)).toMatch(/^Rust ownership \d/);
    await p.run("show-status");
    expect(lastNotice()).toMatch(/^Rust ownership: .* so far\n/);
    await p.run("save-checkpoint");
    expect(lastNotice()).toMatch(/^Checkpoint saved \(Rust ownership · /);
    await p.run("pause-session");
    expect(lastNotice()).toMatch(/^Session on Rust ownership paused at /);
    await p.run("continue-session");
    expect(lastNotice()).toBe("Session on Rust ownership continues.");
    await p.run("end-session");
    const preview = (modals()[0] as unknown as { contentEl: HTMLElement }).contentEl.querySelector(
      ".palee-end-preview",
    );
    expect(preview?.textContent).toMatch(/^Rust ownership · started 11:55 · /);
    await submitEnd("Moves", "");
    expect(lastNotice()).toMatch(/^Session on Rust ownership saved \(/);
  });

  it("is shown by its note's name in the history view: the open session and the recent sessions", async () => {
    const p = await loadPlugin(harness({ files: startedByTheCli() }), { device: "laptop" });
    const view = await openHistoryView(p);
    expect(view.contentEl.querySelector(".palee-history-open-topic")?.textContent).toBe("Rust ownership");
    const recent = Array.from(view.contentEl.querySelectorAll(".palee-history-recent a"), (a) => a.textContent);
    expect(recent).toEqual(["2026-08-13 10:00 · Rust ownership"]);
    const topics = Array.from(view.contentEl.querySelectorAll("table.palee-history-topics td:first-child"));
    expect(topics.map((td) => td.textContent)).toEqual(["Rust ownership"]);
    // As an Obsidian link to the note, though no session recorded one (contract §5 version 4).
    expect(topics[0].querySelector("a.internal-link")?.getAttribute("data-href")).toBe("notes/Rust ownership");
  });

  it("is shown by its note's name in the recovery dialog once interrupted", async () => {
    const files = startedByTheCli();
    const old = "2026-08-14T11:00:00+00:00";
    files[S(DRAFT)] = draftText({
      session_id: DRAFT,
      started_at: old,
      last_checkpoint_at: "2026-08-14T11:20:00+00:00",
    });
    files[HOT] = hotText({ active_topic: "T-rust-ownership", started_at: old, open_draft: DRAFT, device: "laptop" });
    const p = await loadPlugin(harness({ files }), { device: "laptop" });
    await settle();
    expect(statusText(p)).toBe("Rust ownership (interrupted)");
    expect(recoveryRows().map((r) => r.text)).toEqual([expect.stringContaining("IgnoreRust ownershipOn laptop · ")]);
  });

  it("follows the note: a rename or a palee_id given up shows at the next notice", async () => {
    const h = harness({ files: startedByTheCli() });
    const p = await loadPlugin(h, { device: "laptop" });
    await p.run("show-status");
    expect(lastNotice()).toMatch(/^Rust ownership: /);
    const note = h.app.vault.getFileByPath(NOTE);
    if (!note) throw new Error("no topic note");
    await h.app.fileManager.renameFile(note, "notes/Ownership in Rust.md");
    await settle();
    await p.run("show-status");
    expect(lastNotice()).toMatch(/^Ownership in Rust: /);
    await h.app.fileManager.processFrontMatter(note, (fm: Record<string, unknown>) => {
      delete fm.palee_id;
    });
    h.catchUpCache(); // the metadata cache indexes the note, as the app does a moment after a write
    await settle();
    await p.run("show-status");
    expect(lastNotice()).toMatch(/^T-rust-ownership: /);
  });

  it("is named by its note in the set-goals dialog", async () => {
    const p = await loadPlugin(harness({ files: startedByTheCli() }), { device: "laptop" });
    await p.run("set-goals");
    const modal = (modals() as readonly unknown[]).find((m): m is GoalsModal => m instanceof GoalsModal);
    expect(modal?.contentEl.textContent).toContain("Minutes per week on Rust ownership");
    expect(modal?.contentEl.textContent).not.toContain("T-rust-ownership");
  });

  it("is shown by its ID when no note has that palee_id", async () => {
    const files = startedByTheCli();
    delete files[NOTE];
    const p = await loadPlugin(harness({ files }), { device: "laptop" });
    expect(statusText(p)).toMatch(/^T-rust-ownership \d/);
    await p.run("show-status");
    expect(lastNotice()).toMatch(/^T-rust-ownership: .* so far\n/);
  });
});

describe("a session started from a link or the app's command line", () => {
  it("records topic_note when a note has the topic's ID, given by ID or by name", async () => {
    for (const [door, topic] of [
      ["link", "T-rust-ownership"],
      ["app CLI", "T-rust-ownership"],
      ["link", "Rust ownership"],
    ] as const) {
      const h = harness({ files: { [NOTE]: NOTE_TEXT, [S(PAST)]: confirmedText({ session_id: PAST }) } });
      const p = await loadPlugin(h, { device: "laptop" });
      if (door === "link")
        await followLink(p, `obsidian://palee-sessions?action=start&topic=${encodeURIComponent(topic)}`);
      else await runCli(p, "palee-sessions:start", { topic });
      expect({ door, topic, fields: fieldsAt(h, onlyDraft(h)) }).toMatchObject({
        door,
        topic,
        fields: { topic_id: "T-rust-ownership", topic_note: "[[Rust ownership]]" },
      });
      p.unload();
    }
  });
});

describe("logging a past session on a topic note", () => {
  it("names the note in the dialog and the notice, and records topic_note", async () => {
    const h = harness({ files: { [NOTE]: NOTE_TEXT } });
    const p = await loadPlugin(h, { device: "laptop" });
    expect(await p.run("log-session")).toBe(true);
    await pickTopic("", (c) => c.kind === "topic-note");
    const modal = (modals() as readonly unknown[]).find((m): m is LogSessionModal => m instanceof LogSessionModal);
    if (!modal) throw new Error("no log dialog");
    expect(modal.contentEl.querySelector(".palee-log-topic")?.textContent).toBe("Topic: Rust ownership");
    type(modal.contentEl.querySelector(".palee-log-minutes"), "30");
    click(buttonByText(modal.contentEl, "Log session"));
    await settle();
    expect(fieldsAt(h, onlyConfirmed(h))).toMatchObject({
      topic_id: "T-rust-ownership",
      topic_note: "[[Rust ownership]]",
    });
    expect(lastNotice()).toMatch(/^Logged Rust ownership, /);
  });
});

describe("the daily-note line", () => {
  it("links the topic note by its name instead of the ID", async () => {
    const h = harness({ files: { [NOTE]: NOTE_TEXT } });
    installDailyNotes(h, { core: { folder: "journal" } });
    const p = await loadPlugin(h, { device: "laptop", data: { dailyNote: true } });
    jest.setSystemTime(T0);
    await startOn(p, "T-rust-ownership");
    jest.advanceTimersByTime(42 * MINUTE);
    await settle();
    await p.ribbon();
    await submitEnd("Moves", "");
    const [id] = confirmedIds(h);
    expect(textAt(h, "journal/2026-08-14.md")).toContain(`\n- 12:00–12:42 [[Rust ownership]], 42 min [[${id}]]\n`);
  });
});
