/**
 * The history view's "This week" and "Year" sections (contract §5 version 4). Progress is drawn in the theme's
 * accent; the open session's minutes beside it, apart and not counted; the year as one SVG element per day
 * (blank days are not drawn), one title moved to the day under the pointer, a text alternative giving the
 * summary, and a box that scrolls sideways on a narrow screen and opens at the newest week. Nothing is ever
 * drawn in a warning colour or called missed.
 */
import type { Week, YearDay, YearView } from "../../core/goals";
import { weekProgressText } from "../../core/goals";
import { DAY_MS, formatDuration } from "../../core/time";
import { plural } from "./history-chart";
import type { GoalsModel } from "./goals-model";

const CELL = 11;
const GAP = 2;
const LEFT = 26;
const TOP = 12;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The share of a target reached, 0–1; a week without a target of that kind gives null. */
function share(done: number, target: number | null): number | null {
  return target === null || target <= 0 ? null : Math.min(1, done / target);
}

function progressBar(el: HTMLElement, week: Week, openMinutes: number): void {
  const done = share(week.minutes, week.targetMinutes) ?? share(week.sessions, week.targetSessions);
  if (done === null) return;
  const bar = el.createDiv({ cls: "palee-goal-bar", attr: { "aria-hidden": "true" } });
  bar.createDiv({ cls: "palee-goal-fill", attr: { style: `width: ${Math.round(done * 100)}%` } });
  const extra = week.targetMinutes ? Math.min(1 - done, openMinutes / week.targetMinutes) : 0;
  if (extra > 0) bar.createDiv({ cls: "palee-goal-open", attr: { style: `width: ${Math.round(extra * 100)}%` } });
}

function goalRow(el: HTMLElement, label: string, week: Week, openMinutes: number, title?: string): void {
  const row = el.createDiv({ cls: "palee-goal-row" });
  row.createDiv({ text: label, cls: "palee-history-stat-label", attr: title ? { title } : {} });
  row.createDiv({ text: weekProgressText(week), cls: "palee-goal-text" });
  progressBar(row, week, openMinutes);
  if (openMinutes > 0) {
    row.createDiv({
      text: `+ ${formatDuration(openMinutes)} in the open session, counted when it ends`,
      cls: "palee-history-muted palee-goal-open-text",
    });
  }
}

/**
 * `names`: a topic note's name by topic ID, where one is known (contract §5 version 4: topics by name); the ID
 * is then the row's tooltip.
 */
export function renderThisWeek(
  el: HTMLElement,
  model: GoalsModel,
  names: ReadonlyMap<string, string> = new Map(),
): void {
  const section = el.createDiv({ cls: "palee-this-week" });
  section.createDiv({ text: "This week", cls: "palee-history-heading" });
  const { report } = model;
  const hasGoal = report.week.targetMinutes !== null || report.week.targetSessions !== null;
  goalRow(section, hasGoal ? "Weekly goal" : "No weekly goal yet", report.week, model.openMinutes);
  for (const topic of report.topics) {
    const name = names.get(topic.topicId);
    const open = model.openTopicId === topic.topicId ? model.openMinutes : 0;
    goalRow(section, name ?? topic.topicId, topic, open, name === undefined ? undefined : topic.topicId);
  }
  if (!hasGoal && report.topics.length === 0) {
    section.createEl("p", { text: "No goal yet: the set goals command sets one.", cls: "palee-history-muted" });
  }
}

const dateOf = (day: number): Date => new Date(day * DAY_MS);

/** "Wed 12 Aug: 42 min, 2 sessions", what a day's title says. */
export function dayTitle(day: YearDay): string {
  const date = dateOf(day.day);
  const name = `${WEEKDAYS[(date.getUTCDay() + 6) % 7]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
  const marks: Partial<Record<YearDay["state"], string>> = {
    rest: ", a rest day",
    paused: ", paused",
    frozen: ", frozen",
  };
  return `${name}: ${formatDuration(day.minutes)}, ${plural(day.sessions, "session")}${marks[day.state] ?? ""}`;
}

/** The year in words: the text alternative of the heatmap. */
export function yearSummaryText(view: YearView): string {
  return (
    `Studied ${view.studyDays.last30} of the last 30 days and ${view.studyDays.last365} of the last 365. ` +
    `${view.weeksMet} of ${view.weeksJudged} weeks met; week streak ${plural(view.weekStreak.current, "week")} ` +
    `(longest ${view.weekStreak.longest}); day chain ${plural(view.chain.current, "day")} ` +
    `(longest ${view.chain.longest}).`
  );
}

function dayClass(day: YearDay): string {
  if (day.minutes === 0 && (day.state === "rest" || day.state === "paused" || day.state === "frozen")) {
    return `palee-year-day is-${day.state}`;
  }
  return `palee-year-day palee-year-level-${day.level}`;
}

function drawLabels(svg: SVGElement, view: YearView): void {
  [0, 2, 4].forEach((row) => {
    const label = svg.createSvg("text", { cls: "palee-year-label", attr: { x: 0, y: TOP + row * (CELL + GAP) + 9 } });
    label.textContent = WEEKDAYS[row];
  });
  let free = 0;
  view.weeks.forEach((week, column) => {
    for (let day = week.monday; day < week.monday + 7; day++) {
      if (dateOf(day).getUTCDate() !== 1 || column < free) continue;
      const x = LEFT + column * (CELL + GAP);
      const label = svg.createSvg("text", { cls: "palee-year-label", attr: { x, y: 9 } });
      label.textContent = MONTHS[dateOf(day).getUTCMonth()];
      free = column + 3;
    }
  });
}

export function renderYear(el: HTMLElement, view: YearView): HTMLElement {
  const section = el.createDiv({ cls: "palee-year" });
  section.createDiv({ text: "Year", cls: "palee-history-heading" });
  const summary = yearSummaryText(view);
  const scroll = section.createDiv({ cls: "palee-year-scroll", attr: { "data-scrolls": "x" } });
  const width = LEFT + view.weeks.length * (CELL + GAP);
  const height = TOP + 7 * (CELL + GAP);
  const svg = scroll.createSvg("svg", {
    cls: "palee-year-svg",
    attr: { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary },
  });
  drawLabels(svg, view);
  // One title for the whole year, moved into the day under the pointer: one element per day, not two.
  const title = svg.createSvg("title");
  title.textContent = summary;
  view.days.forEach((day, i) => {
    if (day.state === "future" || day.state === "before_start") return;
    const column = Math.floor(i / 7);
    const rect = svg.createSvg("rect", {
      cls: dayClass(day),
      attr: {
        x: LEFT + column * (CELL + GAP),
        y: TOP + (i % 7) * (CELL + GAP),
        width: CELL,
        height: CELL,
        rx: 2,
        "data-title": dayTitle(day),
      },
    });
    rect.addEventListener("mouseover", () => {
      title.textContent = rect.getAttribute("data-title");
      rect.appendChild(title);
    });
  });
  section.createEl("p", { text: summary, cls: "palee-history-muted palee-year-summary" });
  // The box is right to left (styles.css), so it opens at the newest week, on the right, on any screen.
  return scroll;
}
