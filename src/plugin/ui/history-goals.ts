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

/** Weekday labels, in their own drawing beside the scrolling year, so they stay in sight when it scrolls. */
function drawWeekdays(frame: HTMLElement, height: number): void {
  const svg = frame.createSvg("svg", {
    cls: "palee-year-weekdays",
    attr: { width: LEFT, height, viewBox: `0 0 ${LEFT} ${height}`, "aria-hidden": "true" },
  });
  [0, 2, 4].forEach((row) => {
    const label = svg.createSvg("text", { cls: "palee-year-label", attr: { x: 0, y: TOP + row * (CELL + GAP) + 9 } });
    label.textContent = WEEKDAYS[row];
  });
}

function drawMonths(svg: SVGElement, view: YearView): void {
  let free = 0;
  view.weeks.forEach((week, column) => {
    for (let day = week.monday; day < week.monday + 7; day++) {
      if (dateOf(day).getUTCDate() !== 1 || column < free) continue;
      const label = svg.createSvg("text", { cls: "palee-year-label", attr: { x: column * (CELL + GAP), y: 9 } });
      label.textContent = MONTHS[dateOf(day).getUTCMonth()];
      free = column + 3;
    }
  });
}

/**
 * A drawn year, kept by the history view between redraws: after an end only today's cell changes, so a redraw
 * of the same weeks updates the cells that differ instead of drawing some 400 elements again. `cells[i]` is
 * the element of `view.days[i]` (null: a blank day, not drawn).
 */
export interface YearDrawing {
  section: HTMLElement;
  /** The weeks drawn (their first Monday and count): another range is drawn afresh. */
  range: string;
  svg: SVGElement;
  title: SVGElement;
  summary: HTMLElement;
  cells: Array<SVGElement | null>;
}

const rangeOf = (view: YearView): string => `${view.from}/${view.weeks.length}`;

/** What a day's cell shows: its class and title, or null for a blank day (future, before the first session). */
function cellOf(day: YearDay): { cls: string; title: string } | null {
  return day.state === "future" || day.state === "before_start" ? null : { cls: dayClass(day), title: dayTitle(day) };
}

function drawCell(
  drawing: YearDrawing,
  index: number,
  cell: { cls: string; title: string },
  /** The drawn cell it goes before (cells stay in day order, as a fresh drawing has them); null: the end. */
  before: SVGElement | null,
): SVGElement {
  const rect = drawing.svg.createSvg("rect", {
    cls: cell.cls,
    attr: {
      x: Math.floor(index / 7) * (CELL + GAP),
      y: TOP + (index % 7) * (CELL + GAP),
      width: CELL,
      height: CELL,
      rx: 2,
      "data-title": cell.title,
    },
  });
  rect.addEventListener("mouseover", () => {
    drawing.title.textContent = rect.getAttribute("data-title");
    rect.appendChild(drawing.title);
  });
  if (before) drawing.svg.insertBefore(rect, before);
  return rect;
}

/** Brings the cells and the summary of `drawing` to `view` (the same weeks), touching only what differs. */
function updateYear(drawing: YearDrawing, view: YearView, summary: string): void {
  // Backwards, so the next drawn cell is known when a cell is added.
  let next: SVGElement | null = null;
  for (let i = view.days.length - 1; i >= 0; i--) {
    const cell = cellOf(view.days[i]);
    const rect = drawing.cells[i];
    if (!cell) {
      rect?.remove();
      drawing.cells[i] = null;
      continue;
    }
    if (!rect) drawing.cells[i] = drawCell(drawing, i, cell, next);
    else {
      if (rect.getAttribute("class") !== cell.cls) rect.setAttribute("class", cell.cls);
      if (rect.getAttribute("data-title") !== cell.title) rect.setAttribute("data-title", cell.title);
    }
    next = drawing.cells[i];
  }
  if (drawing.svg.getAttribute("aria-label") !== summary) drawing.svg.setAttribute("aria-label", summary);
  // The title shows the summary until a day is hovered, then that day's text (which may have changed).
  const host = drawing.title.parentNode;
  drawing.title.textContent =
    host instanceof Element && host !== drawing.svg ? host.getAttribute("data-title") : summary;
  drawing.summary.setText(summary);
}

/**
 * Draws the year into `el`; with `kept` (the drawing of the last redraw, of the same weeks), moves that drawing
 * here and updates it instead. Returns the drawing to keep for the next redraw.
 */
export function renderYear(el: HTMLElement, view: YearView, kept: YearDrawing | null = null): YearDrawing {
  const summary = yearSummaryText(view);
  if (kept && kept.range === rangeOf(view)) {
    el.appendChild(kept.section);
    updateYear(kept, view, summary);
    return kept;
  }
  const section = el.createDiv({ cls: "palee-year" });
  section.createDiv({ text: "Year", cls: "palee-history-heading" });
  const height = TOP + 7 * (CELL + GAP);
  const frame = section.createDiv({ cls: "palee-year-frame" });
  drawWeekdays(frame, height);
  const scroll = frame.createDiv({ cls: "palee-year-scroll", attr: { "data-scrolls": "x" } });
  const width = view.weeks.length * (CELL + GAP);
  const svg = scroll.createSvg("svg", {
    cls: "palee-year-svg",
    attr: { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary },
  });
  drawMonths(svg, view);
  // One title for the whole year, moved into the day under the pointer: one element per day, not two.
  const title = svg.createSvg("title");
  title.textContent = summary;
  const text = section.createEl("p", { text: summary, cls: "palee-history-muted palee-year-summary" });
  const drawing: YearDrawing = { section, range: rangeOf(view), svg, title, summary: text, cells: [] };
  drawing.cells = view.days.map(() => null);
  view.days.forEach((day, i) => {
    const cell = cellOf(day);
    if (cell) drawing.cells[i] = drawCell(drawing, i, cell, null);
  });
  // The box is right to left (styles.css), so it opens at the newest week, on the right, on any screen.
  return drawing;
}
