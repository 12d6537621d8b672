/**
 * Honest time in the plugin (contract §4 "Honest time", §5, invariant 11): pause and continue, time away after a
 * sleep (a tick gap longer than the grace period) recorded as a break and announced with "Count it", the end
 * dialog's choice of when the session ended, and logging a past session. A sleep is simulated by moving the
 * wall clock without firing the intervals in between, as a sleeping laptop does.
 */
import { Notice } from "obsidian-test-mocks/obsidian";
import { LogSessionModal } from "../../src/plugin/ui/log-modal";
import { confirmedText, draftText, hotText } from "../support/builders";
import type { ObsidianHarness } from "./support/obsidian-harness";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  MINUTE,
  buttonByText,
  clearNotices,
  click,
  endModal,
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  modals,
  noticeLog,
  pickTopic,
  recoverAction,
  recoveryRows,
  settle,
  type,
} from "./support/plugin-harness";
import {
  HOT,
  S,
  at,
  confirmedPaths,
  fieldsAt,
  onlyConfirmed,
  onlyDraft,
  startOn,
  statusText,
  textAt,
} from "./support/session-files";

installPluginTestEnvironment();

const TOPIC = "T-rust-ownership";
const HOUR = 60 * MINUTE;

async function started(data?: unknown): Promise<{ h: ObsidianHarness; p: LoadedPlugin; draft: string }> {
  const h = harness();
  const p = await loadPlugin(h, { device: "laptop", data });
  await startOn(p, TOPIC);
  return { h, p, draft: onlyDraft(h) };
}

/** The learner studies: the wall clock moves and the 1-second ticks fire in between. */
async function studyFor(ms: number): Promise<void> {
  jest.advanceTimersByTime(ms);
  await settle();
}

/** The laptop sleeps: the wall clock moves, no tick fires; then the first tick after waking. */
async function sleepFor(ms: number): Promise<void> {
  jest.setSystemTime(Date.now() + ms);
  await settle();
  jest.advanceTimersByTime(1000);
  await settle();
}

/** The newest notice's action button with this label (notices are built by the plugin, element by element). */
function noticeButton(label: string): HTMLButtonElement {
  const instances = jest.spyOn(Notice.prototype, "constructor__").mock.instances as unknown as Array<{
    messageEl: HTMLElement;
  }>;
  for (let i = instances.length - 1; i >= 0; i--) {
    const found = Array.from(instances[i].messageEl.querySelectorAll("button")).find((b) => b.textContent === label);
    if (found) return found;
  }
  throw new Error(`no notice with a "${label}" button (notices: ${noticeLog().join(" | ")})`);
}

function theModal<T>(type: abstract new (...args: never[]) => T): T {
  const found = (modals() as readonly unknown[]).filter((m): m is T => m instanceof type);
  if (found.length !== 1) throw new Error(`expected one ${type.name}, found ${found.length}`);
  return found[0];
}

// ---- the end dialog ----------------------------------------------------------------------------------------

function endPreviewText(): string {
  return endModal().contentEl.querySelector(".palee-end-preview")?.textContent ?? "";
}

function checkedChoice(): string | null {
  return endModal().contentEl.querySelector<HTMLInputElement>('input[name="palee-end-at"]:checked')?.value ?? null;
}

function chooseEnd(kind: string): void {
  const radio = endModal().contentEl.querySelector<HTMLInputElement>(`input[name="palee-end-at"][value="${kind}"]`);
  if (!radio) throw new Error(`no end choice ${kind}`);
  radio.checked = true;
  radio.dispatchEvent(new Event("change"));
}

function endConfirm(): HTMLButtonElement {
  return buttonByText(endModal().contentEl, "End session");
}

// ---- pause and continue ------------------------------------------------------------------------------------

describe("pause and continue", () => {
  it("offers the command that applies, freezes the status bar while paused and writes nothing meanwhile", async () => {
    const { h, p, draft } = await started();
    await studyFor(20 * MINUTE);
    expect(statusText(p)).toBe(`${TOPIC} 0:20:00`);
    expect([p.available("pause-session"), p.available("continue-session")]).toEqual([true, false]);

    expect(await p.run("pause-session")).toBe(true);
    expect(fieldsAt(h, draft).paused_at).toBe(at(20));
    expect(lastNotice()).toBe(`Session on ${TOPIC} paused at 12:20.`);
    expect(statusText(p)).toBe(`${TOPIC} 0:20:00 (paused)`);
    expect([p.available("pause-session"), p.available("continue-session")]).toEqual([false, true]);

    // Half an hour paused: the timer stays frozen and no automatic checkpoint is written.
    const paused = textAt(h, draft);
    await studyFor(30 * MINUTE);
    expect(statusText(p)).toBe(`${TOPIC} 0:20:00 (paused)`);
    expect(textAt(h, draft)).toBe(paused);

    await p.clickStatusBar();
    expect(p.lastMenu().map((item) => item.title)).toEqual(
      expect.arrayContaining(["Continue session", "Save checkpoint", "End session"]),
    );
    expect(p.lastMenu().map((item) => item.title)).not.toContain("Pause session");
    // A manual checkpoint keeps it paused.
    await p.run("save-checkpoint");
    expect(fieldsAt(h, draft).paused_at).toBe(at(20));

    await p
      .lastMenu()
      .find((item) => item.title === "Continue session")
      ?.click();
    expect(fieldsAt(h, draft)).toMatchObject({ paused_at: null, break_minutes: 30, last_checkpoint_at: at(50) });
    expect(lastNotice()).toBe(`Session on ${TOPIC} continues (breaks so far: 30 min, not counted).`);
    await studyFor(10 * MINUTE);
    expect(statusText(p)).toBe(`${TOPIC} 0:30:00`);
    await p.clickStatusBar();
    expect(p.lastMenu().map((item) => item.title)).toContain("Pause session");
  });

  it("ends a paused session at its pause by default", async () => {
    const { h, p } = await started();
    await studyFor(25 * MINUTE);
    await p.run("pause-session");
    await studyFor(2 * HOUR);
    await p.run("end-session");
    expect(checkedChoice()).toBe("paused");
    expect(endModal().contentEl.textContent).toContain("At the pause (12:25)");
    expect(endPreviewText()).toBe(`${TOPIC} · started 12:00 · 25 min`);
    click(endConfirm());
    await settle();
    expect(fieldsAt(h, onlyConfirmed(h))).toMatchObject({ ended_at: at(25), duration_minutes: 25 });
  });
});

// ---- time away ---------------------------------------------------------------------------------------------

describe("time away", () => {
  it("records a sleep as a break at the first tick after waking, says so, and counts it back on request", async () => {
    const { h, p, draft } = await started();
    await studyFor(10 * MINUTE);
    await sleepFor(8 * HOUR);
    const fields = fieldsAt(h, draft);
    expect(fields.break_minutes).toBe(480);
    expect(noticeLog()).toContain("Away 12:10–20:10, not counted");
    // The timer shows the time studied: the night is not in it.
    expect(statusText(p)).toBe(`${TOPIC} 0:10:01`);

    click(noticeButton("Count it"));
    await settle();
    expect(fieldsAt(h, draft)).toMatchObject({ break_minutes: 0, breaks: [] });
    expect(lastNotice()).toBe("Counted 8 h away as study time (breaks now 0 min).");
    click(noticeButton("Count it"));
    await settle();
    expect(lastNotice()).toBe("That time away is no longer recorded as a break: nothing more to count.");
  });

  it("takes the 'Count it' notice down when the plugin is unloaded, and its button does nothing then", async () => {
    const { h, p, draft } = await started();
    await studyFor(10 * MINUTE);
    await sleepFor(8 * HOUR);
    const button = noticeButton("Count it");
    const hide = jest.spyOn(Notice.prototype, "hide");
    const before = textAt(h, draft);
    clearNotices();
    p.unload();
    expect(hide).toHaveBeenCalledTimes(1);
    click(button);
    await settle();
    expect(textAt(h, draft)).toBe(before);
    expect(noticeLog()).toEqual([]);
  });

  it(
    "handles a long tick gap with automatic checkpoints off, and writes nothing while the " + "ticks keep coming",
    async () => {
      const { h, p, draft } = await started({ checkpointMinutes: 0 });
      const before = textAt(h, draft);
      // An hour of study with the app open: every tick is a sign of life, nothing is written.
      await studyFor(HOUR);
      expect(textAt(h, draft)).toBe(before);
      expect(statusText(p)).toBe(`${TOPIC} 1:00:00`);

      await sleepFor(3 * HOUR);
      expect(fieldsAt(h, draft).break_minutes).toBe(180);
      expect(noticeLog()).toContain("Away 13:00–16:00, not counted");
    },
  );

  it("does not record a pause's gap again as time away", async () => {
    const { h, p, draft } = await started();
    await studyFor(5 * MINUTE);
    await p.run("pause-session");
    await sleepFor(2 * HOUR);
    expect(fieldsAt(h, draft).break_minutes ?? 0).toBe(0);
    expect(noticeLog().some((n) => n.startsWith("Away"))).toBe(false);
  });

  it("announces the gap recorded when an interrupted session is resumed", async () => {
    const D = "DRAFT-S-0000abcd";
    const h = harness({
      files: {
        [HOT]: hotText({ active_topic: TOPIC, started_at: at(-180), open_draft: D, device: "laptop" }),
        [S(D)]: draftText({ session_id: D, started_at: at(-180), last_checkpoint_at: at(-120) }),
      },
    });
    const p = await loadPlugin(h, { device: "laptop" });
    expect(recoveryRows().map((r) => r.draftId)).toEqual([D]);
    await recoverAction(D, "resume");
    expect(noticeLog()).toContain("Away 10:00–12:00, not counted");
    expect(fieldsAt(h, S(D)).break_minutes).toBe(120);
    expect(statusText(p)).toBe(`${TOPIC} 1:00:00`);
    click(noticeButton("Count it"));
    await settle();
    expect(fieldsAt(h, S(D)).break_minutes).toBe(0);
  });
});

// ---- the end dialog ----------------------------------------------------------------------------------------

describe("the end dialog", () => {
  it("preselects the last activity after a long silence, and the preview follows the choice", async () => {
    const { h, p } = await started();
    await studyFor(10 * MINUTE);
    // The laptop slept; the learner ends the session before the first tick after waking.
    jest.setSystemTime(Date.now() + 8 * HOUR);
    await p.run("end-session");
    expect(endModal().contentEl.textContent).toContain("No activity since 12:10, 8 h ago");
    expect(checkedChoice()).toBe("last");
    expect(endPreviewText()).toBe(`${TOPIC} · started 12:00 · 10 min`);

    chooseEnd("now");
    expect(endPreviewText()).toBe(`${TOPIC} · started 12:00 · 8 h 10 min`);
    chooseEnd("given");
    expect(endConfirm().disabled).toBe(true);
    type(endModal().contentEl.querySelector("input.palee-end-time"), "13:00");
    expect(endPreviewText()).toBe(`${TOPIC} · started 12:00 · 1 h`);
    expect(endConfirm().disabled).toBe(false);
    type(endModal().contentEl.querySelector("input.palee-end-time"), "25:99");
    expect(endModal().contentEl.querySelector(".palee-end-error")?.textContent).toBe(
      '"25:99" is not a time: type HH:MM.',
    );
    expect(endConfirm().disabled).toBe(true);
    type(endModal().contentEl.querySelector("input.palee-end-time"), "11:00");
    expect(endModal().contentEl.querySelector(".palee-end-error")?.textContent).toMatch(/before the session started/);

    // Ticks while the dialog is open record no time away: the dialog is the learner's choice.
    await studyFor(5000);
    expect(noticeLog().some((n) => n.startsWith("Away"))).toBe(false);
    chooseEnd("last");
    click(endConfirm());
    await settle();
    expect(fieldsAt(h, onlyConfirmed(h))).toMatchObject({ ended_at: at(10), duration_minutes: 10 });
    expect(lastNotice()).toBe(`Session on ${TOPIC} saved (10 min).`);
  });

  it("previews a typed time with only the part of each break before it, and records that part", async () => {
    const { h, p, draft } = await started();
    await studyFor(10 * MINUTE);
    await sleepFor(8 * HOUR); // away 12:10–20:10, recorded at the first tick after waking
    expect(fieldsAt(h, draft).breaks).toEqual([`${at(10)}/${at(490).replace(":00+", ":01+")}`]);
    await p.run("end-session");
    chooseEnd("given");
    type(endModal().contentEl.querySelector("input.palee-end-time"), "12:05");
    expect(endPreviewText()).toBe(`${TOPIC} · started 12:00 · 5 min`);
    type(endModal().contentEl.querySelector("input.palee-end-time"), "16:00");
    expect(endPreviewText()).toBe(`${TOPIC} · started 12:00 · 10 min`);
    click(endConfirm());
    await settle();
    expect(fieldsAt(h, onlyConfirmed(h))).toMatchObject({
      ended_at: at(240),
      duration_minutes: 10,
      break_minutes: 230,
      breaks: [`${at(10)}/${at(240)}`],
    });
  });

  it("previews an end typed inside a pause: the pause up to it is a break", async () => {
    const { p } = await started();
    await studyFor(30 * MINUTE);
    await p.run("pause-session");
    await studyFor(HOUR);
    await p.run("continue-session");
    await settle();
    await p.run("end-session");
    chooseEnd("given");
    type(endModal().contentEl.querySelector("input.palee-end-time"), "12:40");
    expect(endPreviewText()).toBe(`${TOPIC} · started 12:00 · 30 min`);
  });

  it("shows a typed wall time the clocks skipped as a refusal in the preview, never an exception", async () => {
    // Europe/Berlin on 2026-03-29: at 01:00 UTC the clocks went from 02:00 to 03:00 (+01:00 to +02:00).
    const jump = Date.parse("2026-03-29T01:00:00Z");
    jest.setSystemTime(Date.parse("2026-03-29T08:00:00Z"));
    const berlin = jest.spyOn(Date.prototype, "getTimezoneOffset").mockImplementation(function (this: Date) {
      return this.getTime() < jump ? -60 : -120;
    });
    try {
      const { p } = await started();
      await studyFor(10 * MINUTE);
      await p.run("end-session");
      chooseEnd("given");
      type(endModal().contentEl.querySelector("input.palee-end-time"), "02:30");
      expect(endModal().contentEl.querySelector(".palee-end-error")?.textContent).toMatch(/does not exist/);
      expect(endConfirm().disabled).toBe(true);
    } finally {
      berlin.mockRestore();
    }
  });

  it("preselects now and shows no silence while the session was active", async () => {
    const { p } = await started({ checkpointMinutes: 0 });
    await studyFor(40 * MINUTE);
    await p.run("end-session");
    expect(checkedChoice()).toBe("now");
    expect(endModal().contentEl.querySelector(".palee-end-silence")).toBeNull();
    expect(endPreviewText()).toBe(`${TOPIC} · started 12:00 · 40 min`);
  });
});

// ---- log a past session ------------------------------------------------------------------------------------

async function openLogDialog(p: LoadedPlugin, topic = TOPIC): Promise<LogSessionModal> {
  expect(await p.run("log-session")).toBe(true);
  await pickTopic(topic, (c) => "topicId" in c && c.topicId === topic);
  return theModal(LogSessionModal);
}

function fill(
  modal: LogSessionModal,
  fields: Partial<Record<"from" | "to" | "minutes" | "summary" | "nextAction" | "recall", string>>,
): void {
  for (const [key, value] of Object.entries(fields)) type(modal.contentEl.querySelector(`.palee-log-${key}`), value);
}

async function logIt(modal: LogSessionModal): Promise<void> {
  click(buttonByText(modal.contentEl, "Log session"));
  await settle();
}

describe("log a past session", () => {
  it("logs a session with a start and an end, and says so", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const modal = await openLogDialog(p);
    fill(modal, { from: "09:30", to: "10:15", summary: "Borrowing rules", nextAction: "Lifetimes" });
    await logIt(modal);
    expect(modals()).toHaveLength(0);
    const path = onlyConfirmed(h);
    expect(fieldsAt(h, path)).toMatchObject({
      topic_id: TOPIC,
      started_at: at(-150),
      ended_at: at(-105),
      duration_minutes: 45,
      outcome: "logged",
      absorbed_drafts: [],
    });
    expect(textAt(h, path)).toContain("## Summary\n\nBorrowing rules");
    expect(lastNotice()).toBe(`Logged ${TOPIC}, 09:30–10:15 (45 min).`);
  });

  it("takes the recall step: what is remembered and a rating (contract §5 version 4)", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const modal = await openLogDialog(p);
    fill(modal, { minutes: "20", recall: "borrow rules" });
    const select = modal.contentEl.querySelector<HTMLSelectElement>("select.palee-log-rating");
    if (!select) throw new Error("no rating field");
    select.value = "2";
    select.dispatchEvent(new Event("change"));
    await logIt(modal);
    const path = onlyConfirmed(h);
    expect(fieldsAt(h, path).recall_rating).toBe(2);
    expect(textAt(h, path)).toContain("## Recall\n\nborrow rules");
  });

  it("shows refusals in the dialog and writes nothing: future, overlap, start after end, bad minutes", async () => {
    const PAST = "S-20260814T090000-abcd";
    const h = harness({
      files: { [S(PAST)]: confirmedText({ session_id: PAST, started_at: at(-180), ended_at: at(-120) }) },
    });
    const p = await loadPlugin(h, { device: "laptop" });
    const files = JSON.stringify(h.files());
    const modal = await openLogDialog(p);
    const error = (): string => modal.contentEl.querySelector(".palee-log-error")?.textContent ?? "";

    fill(modal, { from: "11:30", to: "2026-08-14T13:00:00Z" });
    await logIt(modal);
    expect(error()).toMatch(/^The session would end in the future/);

    fill(modal, { from: "09:30", to: "10:30" });
    await logIt(modal);
    expect(error()).toMatch(new RegExp(`overlaps ${PAST}`));

    fill(modal, { from: "2026-08-14T11:40:00Z", to: "2026-08-14T11:20:00Z" });
    await logIt(modal);
    expect(error()).toMatch(/^Start 11:40 starts after it ends \(End 11:20\)/);

    fill(modal, { from: "", to: "", minutes: "abc" });
    await logIt(modal);
    expect(error()).toMatch(/^Minutes "abc" is not a whole number/);

    expect(modals()).toContain(modal);
    expect(JSON.stringify(h.files())).toBe(files);
    expect(confirmedPaths(h)).toEqual([S(PAST)]);
    expect(noticeLog().some((n) => n.startsWith("Logged"))).toBe(false);

    fill(modal, { minutes: "30" });
    await logIt(modal);
    expect(modals()).toHaveLength(0);
    expect(lastNotice()).toBe(`Logged ${TOPIC}, 11:30–12:00 (30 min).`);
  });
});

// ---- text from notes is rendered as text -------------------------------------------------------------------

describe("hostile text", () => {
  const IMG = "<img src=x onerror=alert(1)>";
  const PARSED = "img, script, iframe, [onerror], [src], b, a";

  it("is shown as text in the pause notice, the away notice, the end dialog and the log dialog", async () => {
    const D = "DRAFT-S-0000beef";
    const h = harness({
      files: {
        [HOT]: hotText({ active_topic: IMG, started_at: at(-5), open_draft: D, device: "laptop" }),
        [S(D)]: draftText({ session_id: D, topic_id: IMG, started_at: at(-5), last_checkpoint_at: at(-1) }),
        [S("S-20260813T100000-abcd")]: confirmedText({ session_id: "S-20260813T100000-abcd", topic_id: IMG }),
      },
    });
    const p = await loadPlugin(h, { device: "laptop" });
    await p.run("pause-session");
    await p.run("continue-session");
    await sleepFor(HOUR);
    await p.run("end-session");
    const dialog = endModal().contentEl;
    document.body.appendChild(dialog);
    expect(endPreviewText()).toBe(`${IMG} · started 11:55 · 5 min`);
    endModal().close();

    const log = await openLogDialog(p, IMG);
    document.body.appendChild(log.contentEl);
    expect(log.contentEl.textContent).toContain(`Topic: ${IMG}`);
    const instances = jest.spyOn(Notice.prototype, "constructor__").mock.instances as unknown as Array<{
      containerEl: HTMLElement;
    }>;
    for (const notice of instances) document.body.appendChild(notice.containerEl);
    expect(noticeLog()).toEqual(expect.arrayContaining([expect.stringContaining(`Session on ${IMG} paused`)]));
    expect(Array.from(document.querySelectorAll(PARSED))).toEqual([]);
    while (document.body.firstChild) document.body.firstChild.remove();
  });
});
