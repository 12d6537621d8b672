/**
 * Goals in the plugin (contract §5 version 4): the history view's "This week" and "Year", the set-goals dialog
 * (plan.md through processFrontMatter, bad values refused with a notice) and open-year, in the in-memory Obsidian.
 */
import { readFileSync } from "fs";
import { join } from "path";
import { formatTimestamp, formatUtcCompact } from "../../src/core/time";
import { GoalsModal } from "../../src/plugin/ui/goals-modal";
import { HISTORY_VIEW } from "../../src/plugin/ui/history-view";
import { confirmedText } from "../support/builders";
import { openHistoryView } from "./support/history-view";
import type { LoadedPlugin } from "./support/plugin-harness";
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
  settle,
  type,
} from "./support/plugin-harness";
import { S, textAt } from "./support/session-files";

installPluginTestEnvironment();

const DAY = 24 * 60 * MINUTE;
const PLAN = "palee/plan.md";
let serial = 0;

/** A confirmed session `daysAgo` days before T0 (Friday 14 August 2026, 12:00 UTC), at 09:00. */
function session(daysAgo: number, minutes: number, topic = "T-rust", topicNote?: string): [string, string] {
  const start = T0 - daysAgo * DAY - 3 * 60 * MINUTE;
  const id = `S-${formatUtcCompact(start)}-${(++serial).toString(16).padStart(4, "0")}`;
  const fields = {
    session_id: id,
    topic_id: topic,
    started_at: formatTimestamp(start, 0),
    ended_at: formatTimestamp(start + minutes * MINUTE, 0),
    duration_minutes: minutes,
    ...(topicNote ? { topic_note: topicNote } : {}),
  };
  return [S(id), confirmedText(fields)];
}

const PLAN_TEXT = [
  "---",
  "palee_schema: 1",
  "type: study_plan",
  "goals:",
  "  - from: 2026-07-06",
  "    minutes_per_week: 300",
  "topics:",
  "  T-rust:",
  "    sessions_per_week: 3",
  "mine: kept",
  "---",
  "My plan, in my words.",
  "",
].join("\n");

async function loaded(files: Record<string, string>): Promise<LoadedPlugin> {
  return loadPlugin(harness({ files }), { device: "laptop" });
}

function history(): Record<string, string> {
  return Object.fromEntries([session(0, 42), session(2, 20), session(3, 43), session(9, 86), session(40, 10)]);
}

describe("This week and Year in the history view", () => {
  it("shows progress against the overall and topic goals, and weeks met instead of the daily streak", async () => {
    const p = await loaded({ ...history(), [PLAN]: PLAN_TEXT });
    const el = (await openHistoryView(p)).contentEl;
    const text = el.textContent ?? "";
    const week = el.querySelector(".palee-this-week")?.textContent ?? "";
    // Monday 10 to Friday 14 August: 43 + 20 + 42 = 105 of 300; T-rust: 3 of 3 sessions.
    expect(week).toBe("This weekWeekly goal105 of 300 minT-rust3 of 3 sessions (goal met)");
    // Only the week of 29 June (no goal yet, one study day) was met; this week is still in progress.
    expect(text).toMatch(/Week streak0 weekslongest 1 week/);
    expect(text).toMatch(/Studied4 of 30 daysin the last 30 days/);
    expect(text).not.toMatch(/Streak\d+ day/);
    expect(el.querySelector(".palee-goal-fill")?.getAttribute("style")).toBe("width: 35%");
  });

  it("draws the year as one element per day, each titled, within 450 nodes, with a text alternative", async () => {
    const p = await loaded({ ...history(), [PLAN]: PLAN_TEXT });
    const el = (await openHistoryView(p)).contentEl;
    const svg = el.querySelector("svg.palee-year-svg") as SVGElement;
    // From the first session (5 July) to as-of: the days before and after are blank, not drawn.
    expect(svg.querySelectorAll("rect")).toHaveLength(41);
    expect(svg.querySelectorAll("*").length + 1).toBeLessThanOrEqual(450);
    const titles = Array.from(svg.querySelectorAll("rect")).map((r) => r.getAttribute("data-title"));
    expect(titles).toContain("Fri 14 Aug: 42 min, 1 session");
    expect(titles).toContain("Tue 11 Aug: 43 min, 1 session");
    const today = svg.querySelector('rect[data-title^="Fri 14 Aug"]') as SVGRectElement;
    // 43 min a day for 300 a week: 42 is under it (level 2), 43 reaches it (level 3), 86 twice it (level 4).
    expect(today.getAttribute("class")).toBe("palee-year-day palee-year-level-2");
    expect(svg.querySelector('rect[data-title^="Tue 11 Aug"]')?.getAttribute("class")).toBe(
      "palee-year-day palee-year-level-3",
    );
    expect(svg.querySelector('rect[data-title^="Wed 5 Aug"]')?.getAttribute("class")).toBe(
      "palee-year-day palee-year-level-4",
    );
    today.dispatchEvent(new MouseEvent("mouseover"));
    expect(today.querySelector("title")?.textContent).toBe("Fri 14 Aug: 42 min, 1 session");
    const summary = el.querySelector(".palee-year-summary")?.textContent;
    expect(summary).toBe(
      "Studied 4 of the last 30 days and 5 of the last 365. 1 of 6 weeks met; week streak 0 weeks (longest 1); " +
        "day chain 1 day (longest 2).",
    );
    expect(svg.getAttribute("aria-label")).toBe(summary);
    // Nothing is drawn or named as a warning: no missed day, no warning class.
    expect(el.querySelector(".mod-warning, .is-missed, [class*='warning'], [class*='error']")).toBeNull();
    expect(el.querySelector(".palee-year-scroll")).not.toBeNull();
  });

  it("names a topic goal by its topic note, with the ID as its tooltip", async () => {
    const files = { ...history(), ...Object.fromEntries([session(1, 15, "T-rust", "[[Books/Rust book]]")]) };
    const p = await loaded({ ...files, [PLAN]: PLAN_TEXT });
    const el = (await openHistoryView(p)).contentEl;
    const labels = Array.from(el.querySelectorAll(".palee-this-week .palee-history-stat-label"));
    expect(labels.map((l) => [l.textContent, l.getAttribute("title")])).toEqual([
      ["Weekly goal", null],
      ["Rust book", "T-rust"],
    ]);
  });

  it("draws the open session's minutes apart and does not count them", async () => {
    const p = await loaded({ ...history(), [PLAN]: PLAN_TEXT });
    await p.run("start-session");
    await pickTopic("T-rust", (c) => "topicId" in c && c.topicId === "T-rust");
    jest.advanceTimersByTime(25 * MINUTE);
    await settle();
    const el = (await openHistoryView(p)).contentEl;
    const week = el.querySelector(".palee-this-week")?.textContent ?? "";
    expect(week).toContain("105 of 300 min+ 25 min in the open session, counted when it ends");
    expect(el.querySelector(".palee-goal-open")?.getAttribute("style")).toBe("width: 8%");
  });

  it("opens the year's box at the newest week: right to left, with the drawing left to right", () => {
    const css = readFileSync(join(__dirname, "../../styles.css"), "utf8");
    expect(css).toMatch(/\.palee-year-scroll \{[^}]*overflow-x: auto;[^}]*direction: rtl;/);
    expect(css).toMatch(/\.palee-year-svg \{[^}]*direction: ltr;/);
  });

  it("opens at the year with open-year", async () => {
    const p = await loaded(history());
    expect(await p.run("open-year")).toBe(true);
    await settle();
    expect(p.h.app.workspace.getLeavesOfType(HISTORY_VIEW.type)).toHaveLength(1);
  });
});

function dialog(): GoalsModal {
  const found = modals().filter((m) => m instanceof GoalsModal);
  expect(found).toHaveLength(1);
  return found[0];
}

async function save(fields: Record<string, string>): Promise<void> {
  const modal = dialog();
  for (const [key, value] of Object.entries(fields)) type(modal.contentEl.querySelector(`.palee-goals-${key}`), value);
  click(buttonByText(modal.contentEl, "Save goals"));
  await settle();
}

describe("the set-goals dialog", () => {
  it.each([
    [{ minutesPerWeek: "-5" }, "Goals not saved: minutes-per-week must be a whole number from 1 to 10080"],
    [{ minutesPerWeek: "2.5" }, "Goals not saved: minutes-per-week must be a whole number"],
    [{ restDays: "funday" }, "Goals not saved: rest-days takes weekdays"],
    [{ pause: "2026-09-10/2026-09-01" }, "ends before it starts"],
    [{ unpause: "2026-09-01" }, "Goals not saved: unpause 2026-09-01: no pause in plan.md starts on that day"],
  ])("refuses %j with a notice and writes nothing", async (fields, notice) => {
    const p = await loaded(history());
    await p.run("set-goals");
    await save(fields);
    expect(lastNotice()).toContain(notice);
    expect(p.h.app.vault.getAbstractFileByPath(PLAN)).toBeNull();
    expect(modals()).toHaveLength(1); // the dialog stays open to fix the value
  });

  it("creates plan.md with the goal from this week's Monday", async () => {
    const p = await loaded(history());
    await p.run("set-goals");
    await save({ minutesPerWeek: "300", restDays: "sat,sun" });
    expect(lastNotice()).toBe("Goals saved in palee/plan.md.");
    expect(modals()).toHaveLength(0);
    const text = textAt(p.h, PLAN);
    expect(text).toContain("goals:\n  - from: 2026-08-10\n    minutes_per_week: 300\n");
    expect(text).toContain("rest_days:\n  - sat\n  - sun\n");
  });

  it("changes only the keys asked for through processFrontMatter; the body stays", async () => {
    const p = await loaded({ ...history(), [PLAN]: PLAN_TEXT });
    await p.run("start-session");
    await pickTopic("T-rust", (c) => "topicId" in c && c.topicId === "T-rust");
    await p.run("set-goals");
    expect((dialog().contentEl.querySelector(".palee-goals-minutesPerWeek") as HTMLInputElement).value).toBe("300");
    await save({ topicMinutesPerWeek: "120", minutesPerWeek: "360" });
    expect(lastNotice()).toBe("Goals saved in palee/plan.md.");
    const text = textAt(p.h, PLAN);
    expect(text.endsWith("---\nMy plan, in my words.\n")).toBe(true);
    expect(text).toContain("mine: kept");
    expect(text).toMatch(/from: 2026-07-06\n\s+minutes_per_week: 300/);
    expect(text).toMatch(/from: 2026-08-10\n\s+minutes_per_week: 360/);
    expect(text).toMatch(/T-rust:\n\s+sessions_per_week: 3\n\s+minutes_per_week: 120/);
  });

  it("offers the active topic's goal from hot.md when no session is open", async () => {
    const hot =
      "---\npalee_schema: 1\nmemory_id: H-active\nactive_topic: T-rust\nstarted_at: null\nopen_draft: null\n---\n";
    const p = await loaded({ ...history(), [PLAN]: PLAN_TEXT, "palee/hot.md": hot });
    await p.run("set-goals");
    const field = dialog().contentEl.querySelector(".palee-goals-topicSessionsPerWeek") as HTMLInputElement;
    expect(field.value).toBe("3");
  });

  it("never writes a plan.md it cannot read: a notice names it, and nothing changes", async () => {
    const corrupt = "---\ngoals: [\n---\nMy plan.\n";
    const p = await loaded({ ...history(), [PLAN]: corrupt });
    await p.run("set-goals");
    expect(modals()).toHaveLength(0);
    expect(lastNotice()).toMatch(
      /^palee\/plan\.md cannot be read \(.+\): fix or remove it first\. Nothing was changed\.$/,
    );
    expect(textAt(p.h, PLAN)).toBe(corrupt);
  });
});
