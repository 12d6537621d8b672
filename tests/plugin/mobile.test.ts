/**
 * On mobile (Platform.isMobile) there is no status bar: the ribbon and every command must do the whole job,
 * and the device is named "mobile-…" (contract §5).
 */
import { DEVICE_STORAGE_KEY } from "../../src/plugin/adapters/device";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  MINUTE,
  T0,
  endModal,
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  modals,
  pickTopic,
  recoverAction,
  recoveryModal,
  recoveryRows,
  settle,
  submitEnd,
} from "./support/plugin-harness";
import { HOT, INDEX, at, bodyAt, fieldsAt, idOf, onlyConfirmed, onlyDraft, textAt } from "./support/session-files";

installPluginTestEnvironment();

async function mobile(): Promise<{ h: ReturnType<typeof harness>; p: LoadedPlugin }> {
  const h = harness();
  const p = await loadPlugin(h, { mobile: true });
  return { h, p };
}

describe("the plugin on mobile", () => {
  it("creates no status bar item", async () => {
    const { p } = await mobile();
    expect(p.statusBar()).toBeNull();
    expect((p.plugin as unknown as { statusBarItems__: HTMLElement[] }).statusBarItems__).toEqual([]);
  });

  it("still registers every command", async () => {
    const { p } = await mobile();
    expect(p.commandIds()).toEqual(
      [
        "start-session",
        "save-checkpoint",
        "end-session",
        "recover-drafts",
        "show-status",
        "open-working-memory",
        "open-session-note",
        "copy-working-memory",
        "copy-tutor-brief",
        "rebuild-views",
        "import-palee-folder",
        "open-history",
        "export-sessions",
        "copy-sessions-csv",
        "create-sessions-base",
        "pause-session",
        "continue-session",
        "log-session",
        "set-goals",
        "open-year",
        "study-next",
      ].sort(),
    );
  });

  it("names the device mobile-<4 hex>, kept in local storage", async () => {
    const { h, p } = await mobile();
    const name = h.app.loadLocalStorage(DEVICE_STORAGE_KEY) as unknown;
    expect(name).toMatch(/^mobile-[0-9a-f]{4}$/);
    await p.ribbon();
    await pickTopic("T-rust-ownership");
    expect(fieldsAt(h, onlyDraft(h)).device).toBe(name);
  });

  it("starts from the ribbon and ends from the ribbon", async () => {
    const { h, p } = await mobile();
    await p.ribbon();
    await pickTopic("T-rust-ownership");
    expect(lastNotice()).toBe("Session on T-rust-ownership started.");
    const draft = onlyDraft(h);
    expect(fieldsAt(h, HOT)).toMatchObject({
      active_topic: "T-rust-ownership",
      open_draft: idOf(draft),
      started_at: at(0),
    });

    jest.advanceTimersByTime(25 * MINUTE); // studying: the ticks fire (a jump of the clock alone is a sleep)
    await settle();
    await p.ribbon();
    expect(endModal().contentEl.textContent).toContain("T-rust-ownership · started 12:00 · 25 min");
    await submitEnd("Moves", "Borrows");
    expect(lastNotice()).toBe("Session on T-rust-ownership saved (25 min).");
    expect(fieldsAt(h, onlyConfirmed(h))).toMatchObject({
      duration_minutes: 25,
      absorbed_drafts: [idOf(draft)],
      outcome: "completed",
    });
  });

  it("runs start, checkpoint, show status and end as commands", async () => {
    const { h, p } = await mobile();
    expect(p.available("save-checkpoint")).toBe(false);
    expect(p.available("end-session")).toBe(false);

    expect(await p.run("start-session")).toBe(true);
    await pickTopic("T-rust-ownership");
    const draft = onlyDraft(h);
    expect(p.available("save-checkpoint")).toBe(true);
    expect(p.available("end-session")).toBe(true);

    jest.setSystemTime(T0 + 3 * MINUTE + 7_000);
    expect(await p.run("save-checkpoint")).toBe(true);
    expect(lastNotice()).toBe("Checkpoint saved (T-rust-ownership · 0:03).");
    expect(fieldsAt(h, draft).last_checkpoint_at).toBe("2026-08-14T12:03:07+00:00");

    jest.advanceTimersByTime(T0 + 42 * MINUTE + 5_000 - Date.now());
    await settle();
    expect(await p.run("show-status")).toBe(true);
    const status = lastNotice();
    expect(status).toContain("T-rust-ownership");
    expect(status).toContain("0:42:05 so far");
    expect(status).toContain("Last checkpoint 12:42"); // automatic checkpoints while studying

    expect(await p.run("end-session")).toBe(true);
    await submitEnd("Ownership rules", "Lifetimes");
    const confirmed = onlyConfirmed(h);
    expect(fieldsAt(h, confirmed)).toMatchObject({ topic_id: "T-rust-ownership", duration_minutes: 42 });
    expect(bodyAt(h, confirmed)).toContain("## Summary\n\nOwnership rules\n");
    expect(textAt(h, INDEX)).toContain(`- [[${idOf(confirmed)}]] - Topic: T-rust-ownership (2026-08-14, 42 min)`);
    expect(h.files()[draft]).toBeUndefined();
    expect(p.available("end-session")).toBe(false);
  });

  it("checkpoints automatically on the interval", async () => {
    const { h, p } = await mobile();
    await p.ribbon();
    await pickTopic("T-rust-ownership");
    const draft = onlyDraft(h);
    jest.advanceTimersByTime(5 * MINUTE);
    await settle();
    expect(fieldsAt(h, draft).last_checkpoint_at).toBe(at(5));
  });

  it("opens the session note and the working memory", async () => {
    const { h, p } = await mobile();
    await p.ribbon();
    await pickTopic("T-rust-ownership");
    const draft = onlyDraft(h);
    await p.run("open-session-note");
    expect(h.app.workspace.getActiveFile()?.path).toBe(draft);
    await p.run("open-working-memory");
    expect(h.app.workspace.getActiveFile()?.path).toBe(HOT);
    expect(modals()).toHaveLength(0);
  });

  it("shows that no session is open when asked for the status", async () => {
    const { p } = await mobile();
    await p.run("show-status");
    expect(lastNotice()).toBe("No session is open.");
  });

  it("recovers an interrupted session of this phone through the recover command", async () => {
    const { h, p } = await mobile();
    await p.ribbon();
    await pickTopic("T-rust-ownership");
    const draft = onlyDraft(h);
    p.unload();
    jest.setSystemTime(T0 + 2 * 60 * MINUTE); // the phone was put away for two hours
    const again = await loadPlugin(h, { mobile: true });
    expect(recoveryRows().map((r) => r.draftId)).toEqual([idOf(draft)]); // offered on vault open
    recoveryModal().close();
    await again.run("recover-drafts");
    expect(recoveryRows().map((r) => r.draftId)).toEqual([idOf(draft)]);
    await recoverAction(idOf(draft), "save");
    expect(fieldsAt(h, onlyConfirmed(h))).toMatchObject({
      outcome: "interrupted",
      duration_minutes: 0,
      ended_at: at(0),
    });
  });
});
