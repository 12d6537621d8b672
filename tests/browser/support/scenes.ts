/**
 * The screens users judge the plugin by, rendered from the built main.js (as Obsidian loads it: its own
 * context, `require` knows only "obsidian") on the in-memory app of tests/plugin/support. Each scene returns
 * the element to photograph. Needs installPluginTestEnvironment() in the calling test file.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import type { Command, Plugin, SuggestModal, WorkspaceLeaf } from "obsidian";
import * as obsidian from "obsidian-test-mocks/obsidian";
import type { Modal } from "obsidian-test-mocks/obsidian";
import { confirmedText, draftText, hotText } from "../../support/builders";
import { formatTimestamp, formatUtcCompact } from "../../../src/core/time";
import { DEVICE_STORAGE_KEY } from "../../../src/plugin/adapters/device";
import type { HistoryView } from "../../../src/plugin/ui/history-view";
import type { ObsidianHarness } from "../../plugin/support/obsidian-harness";
import { MANIFEST, MINUTE, T0, harness, modals, settle } from "../../plugin/support/plugin-harness";
import { HOT, S } from "../../plugin/support/session-files";
import { modalFrame, viewFrame } from "./page";

const MAIN_JS = path.resolve(__dirname, "../../../main.js");

/**
 * The browser globals the bundle sees (jsdom's, where obsidian-test-mocks put its DOM helpers), and jest's
 * Date, so the fake clock reaches the plugin.
 */
const GLOBALS = [
  "Date",
  "window",
  "document",
  "navigator",
  "console",
  "crypto",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "queueMicrotask",
  "MouseEvent",
  "KeyboardEvent",
  "Event",
  "HTMLElement",
  "Node",
  "createDiv",
  "createEl",
  "createSpan",
  "createFragment",
  "activeWindow",
  "activeDocument",
];

interface Loaded {
  plugin: Plugin;
  command(id: string): Promise<void>;
}

/** Loads the built plugin on `h` for device "laptop" and lets the layout become ready. */
async function loadBuilt(h: ObsidianHarness): Promise<Loaded> {
  const sandbox: Record<string, unknown> = {};
  const globals = globalThis as unknown as Record<string, unknown>;
  for (const name of GLOBALS) if (name in globals) sandbox[name] = globals[name];
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = vm.runInContext(
    `(function (require, module, exports) {${readFileSync(MAIN_JS, "utf8")}\n})`,
    vm.createContext(sandbox),
    { filename: "main.js" },
  ) as (
    require: (id: string) => unknown,
    module: { exports: Record<string, unknown> },
    exports: Record<string, unknown>,
  ) => void;
  wrapper(
    (id) => {
      if (id === "obsidian") return obsidian;
      throw new Error(`main.js required "${id}"`);
    },
    module,
    module.exports,
  );
  h.app.saveLocalStorage(DEVICE_STORAGE_KEY, "laptop");
  const PluginClass = module.exports.default as new (app: unknown, manifest: typeof MANIFEST) => Plugin;
  const plugin = new PluginClass(h.app, MANIFEST);
  plugin.load();
  await settle();
  h.mock.workspace.setLayoutReady__();
  await settle();
  const commands = (plugin as unknown as { commands__: Map<string, Command> }).commands__;
  return {
    plugin,
    async command(id) {
      const c = commands.get(id);
      if (c?.checkCallback) c.checkCallback(false);
      else c?.callback?.();
      await settle();
    },
  };
}

/**
 * Sets the fake clock to `at` for a scene, installing fake timers first when they are not on (a scene rendered
 * in beforeAll runs before installPluginTestEnvironment's beforeEach turns them on). Before loadBuilt: the
 * bundle takes the Date it is given at load.
 */
function sceneClock(at: number): void {
  jest.useFakeTimers({
    now: at,
    doNotFake: ["setTimeout", "clearTimeout", "setImmediate", "queueMicrotask", "nextTick"],
  });
}

type SettingParts = Record<"settingEl" | "infoEl" | "nameEl" | "descEl" | "controlEl", HTMLElement>;

/**
 * The mock's Setting has neither Obsidian's classes nor its order (info, then control): give it both, so the
 * stand-in stylesheet lays setting rows out as the app does. Call in beforeAll; returns the undo.
 */
export function obsidianSettingMarkup(): () => void {
  const spy = jest
    .spyOn(obsidian.Setting.prototype as unknown as { constructor__(el: HTMLElement): void }, "constructor__")
    .mockImplementation(function (this: unknown) {
      const { settingEl, infoEl, nameEl, descEl, controlEl } = this as SettingParts;
      settingEl.addClass("setting-item");
      infoEl.addClass("setting-item-info");
      nameEl.addClass("setting-item-name");
      descEl.addClass("setting-item-description");
      controlEl.addClass("setting-item-control");
      settingEl.appendChild(controlEl);
    });
  return () => spy.mockRestore();
}

/** The newest open modal, which must be the one titled `title` (a scene never photographs another's dialog). */
function lastModal(title?: string): Modal {
  const modal = modals()[modals().length - 1];
  if (!modal) throw new Error("no modal is open");
  const shown = modal.titleEl.textContent ?? "";
  if (title !== undefined && !shown.startsWith(title)) throw new Error(`the open dialog is "${shown}", not ${title}`);
  return modal;
}

function framed(modal: Modal): HTMLElement {
  return modalFrame(modal.titleEl.textContent ?? "", modal.contentEl);
}

export interface Scene {
  name: string;
  render(): Promise<HTMLElement>;
}

/** Sets a field of the dialog as typing would (its value, then the input event its component listens to). */
function typeInto(root: HTMLElement, selector: string, text: string): void {
  const field = root.querySelector<HTMLInputElement | HTMLTextAreaElement>(selector);
  if (!field) throw new Error(`the dialog has no ${selector}`);
  field.value = text;
  field.dispatchEvent(new Event("input"));
}

/** The session before the pictured one: a day earlier, with the next action the dialog carries forward. */
function earlierSession(): Record<string, string> {
  const start = T0 - DAY + 9 * 60 * MINUTE - 12 * 60 * MINUTE;
  const id = `S-${formatUtcCompact(start)}-0e01`;
  const text = confirmedText(
    {
      session_id: id,
      topic_id: "T-rust-ownership",
      started_at: formatTimestamp(start, 0),
      ended_at: formatTimestamp(start + 35 * MINUTE, 0),
      duration_minutes: 35,
      topic_note: "[[Rust ownership]]",
    },
    { summary: "Ownership and moves.", next: "Read chapter 4.2 on references" },
  );
  return {
    [S(id)]: text,
    "Rust ownership.md": "---\npalee_id: T-rust-ownership\n---\n# Rust ownership\n",
  };
}

/**
 * The end dialog 42 minutes into a session (the app ticking all along, so nothing counts as away): a summary and
 * a next action typed, the next action carried from yesterday marked done, what the learner remembers typed, and
 * "Good" chosen among the four ratings.
 */
async function endDialog(): Promise<HTMLElement> {
  sceneClock(T0);
  const p = await loadBuilt(harness({ files: earlierSession() }));
  await p.command("start-session");
  const picker = lastModal() as unknown as SuggestModal<unknown>;
  const [choice] = await picker.getSuggestions("T-rust-ownership");
  picker.selectSuggestion(choice, new MouseEvent("click"));
  await settle();
  for (let minute = 0; minute < 42; minute++) {
    jest.advanceTimersByTime(MINUTE); // the one-second tick runs: signs of life, automatic checkpoints
    await settle();
  }
  await p.command("end-session");
  const modal = lastModal("End session");
  const root = modal.contentEl;
  typeInto(
    root,
    ".palee-summary-input",
    "Moves, borrows and the two rules of the borrow checker; why a clone is explicit.",
  );
  typeInto(root, ".palee-next-input", "Lifetimes in struct fields");
  typeInto(root, ".palee-recall-input", "One owner; a move invalidates the old name; & shares, &mut is exclusive.");
  root.querySelector<HTMLInputElement>(".palee-done-box")?.click();
  root.querySelector<HTMLButtonElement>('.palee-rating-button[data-rating="3"]')?.click();
  const element = framed(modal);
  p.plugin.unload();
  return element;
}

/** The recovery dialog at start-up: two interrupted sessions, one of them from another device. */
async function recoveryDialog(): Promise<HTMLElement> {
  sceneClock(T0 + 3 * 60 * MINUTE);
  const a = "DRAFT-S-0000000a";
  const b = "DRAFT-S-0000000b";
  const h = harness({
    files: {
      [HOT]: hotText(),
      [S(a)]: draftText({
        session_id: a,
        topic_id: "T-rust-ownership",
        started_at: "2026-08-14T08:00:00+00:00",
        last_checkpoint_at: "2026-08-14T08:35:00+00:00",
      }),
      [S(b)]: draftText({
        session_id: b,
        topic_id: "T-spanish-subjunctive",
        started_at: "2026-08-14T10:10:00+00:00",
        last_checkpoint_at: "2026-08-14T10:30:00+00:00",
        device: "phone",
      }),
    },
  });
  const p = await loadBuilt(h);
  // Another device's draft is offered once the session folder has been quiet for a few seconds (sync delivers
  // after layout ready): the one-second tick runs until then.
  for (let second = 0; second < 8 && !modals().some((m) => m.titleEl.textContent?.startsWith("Recover")); second++) {
    jest.advanceTimersByTime(1000);
    await settle();
  }
  const element = framed(lastModal("Recover"));
  p.plugin.unload();
  return element;
}

const DAY = 24 * 60 * MINUTE;

/**
 * A month of study on four topics, as [days before T0's day, start "hh:mm" (UTC, the tests' zone), minutes,
 * topic]: a six-day streak up to today (a session this morning), a longer streak three weeks ago, gaps, one
 * day well above the rest, and a few sessions before the month so the 12-week chart has a history.
 */
export const HISTORY_SESSIONS: ReadonlyArray<readonly [number, string, number, string]> = [
  [0, "08:10", 35, "T-rust-ownership"],
  [1, "07:45", 50, "T-spanish-subjunctive"],
  [1, "19:30", 25, "T-rust-ownership"],
  [2, "18:00", 90, "T-linear-algebra"],
  [3, "08:00", 40, "T-rust-ownership"],
  [4, "20:15", 30, "T-spanish-subjunctive"],
  [4, "21:00", 15, "T-go-concurrency"],
  [5, "07:30", 55, "T-go-concurrency"],
  [7, "09:00", 120, "T-linear-algebra"],
  [8, "18:30", 45, "T-rust-ownership"],
  [10, "08:00", 30, "T-spanish-subjunctive"],
  [11, "19:00", 65, "T-go-concurrency"],
  [12, "07:50", 25, "T-rust-ownership"],
  [15, "18:00", 40, "T-rust-ownership"],
  [16, "17:30", 60, "T-linear-algebra"],
  [18, "08:00", 30, "T-spanish-subjunctive"],
  [19, "19:10", 45, "T-rust-ownership"],
  [20, "07:40", 35, "T-go-concurrency"],
  [21, "18:20", 70, "T-linear-algebra"],
  [22, "08:05", 30, "T-spanish-subjunctive"],
  [23, "20:00", 50, "T-rust-ownership"],
  [24, "07:55", 25, "T-spanish-subjunctive"],
  [25, "18:45", 40, "T-go-concurrency"],
  [27, "08:00", 45, "T-spanish-subjunctive"],
  [29, "19:00", 50, "T-go-concurrency"],
  [31, "18:00", 35, "T-rust-ownership"],
  [38, "18:00", 40, "T-rust-ownership"],
  [45, "19:00", 30, "T-spanish-subjunctive"],
  [52, "18:30", 55, "T-linear-algebra"],
  [61, "18:00", 25, "T-rust-ownership"],
  [68, "19:00", 35, "T-spanish-subjunctive"],
];

/**
 * The learning loop in the month (version 4), by "days ago + topic": recall ratings and next actions, so that
 * "Next up" has topics due with their reasons: a topic rated "again" four days ago, one with a next action.
 */
const HISTORY_LOOP: Record<string, { rating?: number; next?: string }> = {
  "4 T-go-concurrency": { rating: 1 },
  "5 T-go-concurrency": { rating: 2 },
  "2 T-linear-algebra": { next: "Eigenvalues of a 2×2 matrix" },
  "7 T-linear-algebra": { rating: 2 },
  "1 T-spanish-subjunctive": { rating: 3, next: "Subjunctive after ojalá" },
  "0 T-rust-ownership": { rating: 4, next: "Lifetimes in struct fields" },
};

/** T0's day (2026-08-14) at 00:00 UTC. */
const TODAY = T0 - (T0 % DAY);
/** The open session's start and the moment the picture is taken (its timer then shows 0:27:43). */
const OPEN_AT = TODAY + 16 * 60 * MINUTE;
const SHOT_AT = OPEN_AT + 27 * MINUTE + 43_000;

/** "2026-08-14" for a day `daysAgo` before T0's. */
export const historyDay = (daysAgo: number): string => new Date(TODAY - daysAgo * DAY).toISOString().slice(0, 10);

/** The minutes of each of the last `n` days of HISTORY_SESSIONS, oldest first (as the chart draws them). */
export function historyDayMinutes(n = 14): Array<{ date: string; minutes: number }> {
  return Array.from({ length: n }, (_, i) => {
    const daysAgo = n - 1 - i;
    return {
      date: historyDay(daysAgo),
      minutes: HISTORY_SESSIONS.filter(([d]) => d === daysAgo).reduce((sum, [, , m]) => sum + m, 0),
    };
  });
}

function historyFiles(): Record<string, string> {
  const files: Record<string, string> = {
    [HOT]: hotText(),
    "Rust ownership.md": "---\npalee_id: T-rust-ownership\n---\n# Rust ownership\n",
    // Version 4: a weekly goal (5 h), one for a topic, and Sundays off, for This week and Year.
    "palee/plan.md":
      "---\npalee_schema: 1\ntype: study_plan\ngoals:\n  - from: 2026-05-04\n    minutes_per_week: 300\n" +
      "topics:\n  T-spanish-subjunctive:\n    sessions_per_week: 3\nrest_days:\n  - sun\n---\nMy plan.\n",
  };
  HISTORY_SESSIONS.forEach(([daysAgo, hhmm, minutes, topic], i) => {
    const [hh, mm] = hhmm.split(":").map(Number);
    const start = TODAY - daysAgo * DAY + (hh * 60 + mm) * MINUTE;
    const id = `S-${formatUtcCompact(start)}-${(i + 1).toString(16).padStart(4, "0")}`;
    const loop = HISTORY_LOOP[`${daysAgo} ${topic}`];
    files[S(id)] = confirmedText(
      {
        session_id: id,
        topic_id: topic,
        started_at: formatTimestamp(start, 0),
        ended_at: formatTimestamp(start + minutes * MINUTE, 0),
        duration_minutes: minutes,
        ...(topic === "T-rust-ownership" ? { topic_note: "[[Rust ownership]]" } : {}),
        ...(loop?.rating ? { recall_rating: loop.rating } : {}),
      },
      { next: loop?.next },
    );
  });
  return files;
}

/** The study history view in the right sidebar, a month in, with a session open for 27 minutes. */
async function historyView(): Promise<HTMLElement> {
  sceneClock(OPEN_AT);
  const h = harness({ files: historyFiles() });
  const p = await loadBuilt(h);
  await p.command("start-session");
  const picker = lastModal() as unknown as SuggestModal<unknown>;
  const [choice] = await picker.getSuggestions("T-spanish-subjunctive");
  picker.selectSuggestion(choice, new MouseEvent("click"));
  await settle();
  jest.setSystemTime(SHOT_AT);
  const element = await openHistoryView(p, h);
  p.plugin.unload();
  return element;
}

/** The history view's "Next up" alone (version 4): the same view as above, its other parts left out of the frame. */
async function nextUp(): Promise<HTMLElement> {
  const element = await historyView();
  const body = element.querySelector(".palee-history-body");
  if (!body?.querySelector(".palee-next-up")) throw new Error("the history view shows no Next up");
  element.querySelector(".palee-history-open")?.remove();
  Array.from(body.children).forEach((part, i) => i > 0 && part.remove());
  return element;
}

/** The built plugin's history view, opened and framed as a sidebar leaf. */
async function openHistoryView(p: Loaded, h: ObsidianHarness): Promise<HTMLElement> {
  // The mock's leaves do not build views: create it from the registered factory, as Obsidian does.
  const creator = (p.plugin as unknown as { views__: Map<string, (leaf: WorkspaceLeaf) => HistoryView> }).views__.get(
    "palee-history",
  );
  if (!creator) throw new Error("the built plugin registers no history view");
  const view = creator(obsidian.WorkspaceLeaf.create2__(h.mock) as unknown as WorkspaceLeaf);
  await view.onOpen();
  await settle();
  const element = viewFrame(view.getDisplayText(), view.contentEl);
  await view.onClose();
  return element;
}

/** One confirmed session file: [path, text], starting `daysAgo` days before T0's day at 09:00. */
function sessionFile(
  n: number,
  daysAgo: number,
  minutes: number,
  fields: Record<string, string | number> = {},
): [string, string] {
  const start = TODAY - daysAgo * DAY + 9 * 60 * MINUTE;
  const id = `S-${formatUtcCompact(start)}-${(0xb00 + n).toString(16).padStart(4, "0")}`;
  const text = confirmedText({
    session_id: id,
    topic_id: "T-rust-ownership",
    started_at: formatTimestamp(start, 0),
    ended_at: formatTimestamp(start + minutes * MINUTE, 0),
    duration_minutes: minutes,
    ...fields,
  });
  return [S(id), text];
}

/**
 * Issue 12's bad input, as a learner's vault may hold it: a huge and a negative duration, a session that ends
 * before it starts, one that lasts a month, starts in 2099 and 1970, a topic with markup and no spaces. Not a
 * picture for the README; the browser test lays it out at phone width.
 */
export async function badHistoryView(): Promise<HTMLElement> {
  sceneClock(T0);
  const long = `T-<script>alert("x")</script>-${"very-long-topic-name-".repeat(4)}end`;
  const files = Object.fromEntries([
    [HOT, hotText()],
    sessionFile(1, 0, 30),
    sessionFile(2, 1, 45, { duration_minutes: 99_999_999 }),
    sessionFile(3, 2, 30, { ended_at: formatTimestamp(TODAY - 5 * DAY, 0) }),
    sessionFile(4, 3, 30, { duration_minutes: -5 }),
    sessionFile(5, 30, 30 * 24 * 60, { topic_id: long }),
    sessionFile(6, 4, 20, { topic_id: long }),
    [
      "palee/sessions/S-20990101T000000-0abc.md",
      confirmedText({
        session_id: "S-20990101T000000-0abc",
        started_at: "2099-01-01T00:00:00+00:00",
        ended_at: "2099-01-01T01:00:00+00:00",
      }),
    ],
    [
      "palee/sessions/S-19700101T000000-0abd.md",
      confirmedText({
        session_id: "S-19700101T000000-0abd",
        started_at: "1970-01-01T00:00:00+00:00",
        ended_at: "1970-01-01T01:00:00+00:00",
      }),
    ],
  ]);
  const h = harness({ files });
  const p = await loadBuilt(h);
  const element = await openHistoryView(p, h);
  p.plugin.unload();
  return element;
}

export const SCENES: readonly Scene[] = [
  { name: "history-view", render: historyView },
  { name: "next-up", render: nextUp },
  { name: "end-dialog", render: endDialog },
  { name: "recovery-dialog", render: recoveryDialog },
];
