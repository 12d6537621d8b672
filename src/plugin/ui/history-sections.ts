/**
 * The sections of the study history view (history-view.ts): the open session's box, the summary, the topics,
 * the newest sessions and the notes to check. Session and topic links are Obsidian internal links
 * (`internal-link`, `data-href`): hovering previews the note (Page preview), Mod-click or a middle click
 * opens it in a new tab. Every recorded text is set as text, never as HTML.
 */
import { Keymap } from "obsidian";
import type { PaneType } from "obsidian";
import type { SessionStats } from "../../core/insight/stats";
import { formatDuration } from "../../core/time";
import { topicLabel, topicNoteTarget } from "../../core/topics/display";
import { plural } from "./history-chart";
import type { HistoryModel, OpenSessionModel, RecentSession } from "./history-model";
import type { GoalsModel } from "./goals-model";
import { KeptNodes } from "./kept-nodes";

export interface HistoryActions {
  /** Opens a vault path (a note the view lists as to check). */
  openPath(path: string): void;
  /** Opens an internal link's target (a session or topic note): in a new tab when `newLeaf` says so. */
  openLink(linktext: string, newLeaf: PaneType | boolean): void;
  /** Hovering an internal link: the view triggers Obsidian's `hover-link` (the page preview). */
  hoverLink?(event: MouseEvent, targetEl: HTMLElement, linktext: string): void;
  end(): void;
  pause(): void;
  continueSession(): void;
  recover(): void;
  /** "Next up"'s start button: a session on that topic, by start's rules. */
  startTopic?(topicId: string): void;
  /** A topic's display name (contract §5 version 4, topics by name); without it, the ID. */
  topicName?(topicId: string, topicNote?: string | null): string;
  /** The link text of the note that has the topic's palee_id, or null (then a recorded link's target, if any). */
  topicLinktext?(topicId: string): string | null;
}

/** A topic as the view shows it: its note's name (HistoryActions.topicName; else a recorded link's), else its ID. */
export const topicShown = (actions: HistoryActions, topicId: string, topicNote?: string | null): string =>
  actions.topicName?.(topicId, topicNote) ?? topicLabel(topicId, topicNote);

/** "[[Rust ownership|Rust]]" → "Rust ownership"; null when it is not one wikilink. */
export const linkTarget = (topicNote: string | null): string | null => topicNoteTarget(topicNote);

/** A session note's link text: its vault path without ".md", which names exactly that note. */
export const sessionLinktext = (path: string): string => path.replace(/\.md$/, "");

/** An Obsidian internal link to `linktext`, as the app draws them in notes. */
function internalLink(parent: HTMLElement, text: string, linktext: string, actions: HistoryActions): HTMLElement {
  const a = parent.createEl("a", {
    text,
    cls: "internal-link palee-history-link",
    href: linktext,
    attr: { "data-href": linktext, title: linktext, target: "_blank", rel: "noopener" },
  });
  a.addEventListener("click", (event) => {
    event.preventDefault();
    actions.openLink(linktext, Keymap.isModEvent(event));
  });
  // A middle click fires auxclick, not click: it opens a new tab, as on every Obsidian link.
  a.addEventListener("auxclick", (event) => {
    if (event.button !== 1) return;
    event.preventDefault();
    actions.openLink(linktext, "tab");
  });
  a.addEventListener("mouseover", (event) => actions.hoverLink?.(event, a, linktext));
  return a;
}

/** A link that opens a path through a handler (the notes to check: any file of the folder). */
function pathLink(parent: HTMLElement, text: string, onOpen: () => void): HTMLElement {
  const a = parent.createEl("a", { text, cls: "palee-history-link", href: "#" });
  a.addEventListener("click", (event) => {
    event.preventDefault();
    onOpen();
  });
  return a;
}

/**
 * Fills `box` (emptied first) with the open session, its timer and its buttons; returns the timer element
 * (null when no session is open). Redrawn on its own when only the open session changed.
 */
export function renderOpenBox(
  box: HTMLElement,
  open: OpenSessionModel | null,
  actions: HistoryActions,
): HTMLElement | null {
  box.empty();
  if (!open) {
    box.createEl("p", { text: "No session is open.", cls: "palee-history-muted" });
    return null;
  }
  box.createDiv({ text: topicShown(actions, open.topicId), cls: "palee-history-open-topic" });
  const timer = box.createDiv({ cls: "palee-history-timer", attr: { role: "timer", "aria-live": "off" } });
  if (open.interrupted) {
    box.createDiv({ text: "Interrupted: recover it to continue or save it.", cls: "palee-history-muted" });
  } else if (!open.endable) {
    box.createDiv({ text: `Running on ${open.device ?? "another device"}.`, cls: "palee-history-muted" });
  }
  const buttons = box.createDiv({ cls: "palee-history-open-actions" });
  const button = (text: string, action: () => void, cls?: string): void => {
    buttons.createEl("button", { text, cls }).addEventListener("click", action);
  };
  if (open.endable) {
    if (open.pausedMs !== null) button("Continue", () => actions.continueSession());
    else button("Pause", () => actions.pause());
    button("End", () => actions.end(), "mod-cta");
  } else if (open.interrupted) button("Recover", () => actions.recover());
  return timer;
}

export function renderSummary(el: HTMLElement, stats: SessionStats, goals: GoalsModel | null = null): void {
  const grid = el.createDiv({ cls: "palee-history-summary" });
  const cell = (label: string, value: string, detail: string): void => {
    const c = grid.createDiv({ cls: "palee-history-stat" });
    c.createDiv({ text: label, cls: "palee-history-stat-label" });
    c.createDiv({ text: value, cls: "palee-history-stat-value" });
    c.createDiv({ text: detail, cls: "palee-history-muted" });
  };
  cell("Today", formatDuration(stats.today.minutes), plural(stats.today.sessions, "session"));
  const diff = stats.thisWeek.minutes - stats.lastWeek.minutes;
  const change = `${diff >= 0 ? "+" : "−"}${formatDuration(Math.abs(diff))}`;
  const lastWeek = formatDuration(stats.lastWeek.minutes);
  cell("This week", formatDuration(stats.thisWeek.minutes), `${change} on last week (${lastWeek})`);
  if (goals === null) {
    cell("Streak", plural(stats.streak.current, "day"), `longest ${plural(stats.streak.longest, "day")}`);
    return;
  }
  // Version 4: weeks met and days studied, which a missed day never breaks, instead of the daily streak.
  const weeks = goals.report.weekStreak;
  cell("Week streak", plural(weeks.current, "week"), `longest ${plural(weeks.longest, "week")}`);
  cell("Studied", `${goals.year.studyDays.last30} of 30 days`, "in the last 30 days");
}

/** `kept`: rows of the last redraw, taken over when unchanged (a redraw after an end changes one topic). */
export function renderTopics(
  el: HTMLElement,
  stats: SessionStats,
  actions: HistoryActions,
  kept = new KeptNodes(),
): void {
  el.createDiv({ text: "Topics", cls: "palee-history-heading" });
  if (stats.byTopic.length === 0) {
    el.createEl("p", { text: "No sessions yet: end a session to see your topics here.", cls: "palee-history-muted" });
    return;
  }
  const table = el.createEl("table", { cls: "palee-history-topics" });
  const head = table.createEl("tr");
  for (const title of ["Topic", "Total", "Sessions", "Last studied"]) head.createEl("th", { text: title });
  for (const topic of stats.byTopic) {
    const target = actions.topicLinktext?.(topic.topicId) ?? linkTarget(topic.topicNote);
    const shown = topicShown(actions, topic.topicId, topic.topicNote);
    // Kept while all it shows is the same: the row's data and the topic's name and link as looked up now.
    kept.take(table, `topic:${JSON.stringify([topic, shown, target])}`, () => {
      const row = table.createEl("tr");
      const name = row.createEl("td");
      if (target) internalLink(name, shown, target, actions);
      else name.setText(shown);
      row.createEl("td", { text: formatDuration(topic.minutes) });
      row.createEl("td", { text: String(topic.sessions) });
      row.createEl("td", { text: topic.last });
      return row;
    });
  }
}

/** `kept`: items of the last redraw, taken over when unchanged (an end adds one). */
export function renderRecent(
  el: HTMLElement,
  recent: readonly RecentSession[],
  actions: HistoryActions,
  kept = new KeptNodes(),
): void {
  el.createDiv({ text: "Recent sessions", cls: "palee-history-heading" });
  const list = el.createEl("ul", { cls: "palee-history-recent" });
  for (const s of recent) {
    const shown = topicShown(actions, s.topicId);
    kept.take(list, `recent:${JSON.stringify([s, shown])}`, () => {
      const item = list.createEl("li");
      internalLink(item, `${s.when} · ${shown}`, sessionLinktext(s.path), actions);
      item.createSpan({
        text: ` · ${formatDuration(s.minutes)}${s.flagged ? " (see below)" : ""}`,
        cls: "palee-history-muted",
      });
      return item;
    });
  }
}

export function renderProblems(el: HTMLElement, problems: HistoryModel["problems"], actions: HistoryActions): void {
  if (problems.length === 0) return;
  el.createDiv({ text: `Notes to check (${problems.length})`, cls: "palee-history-heading" });
  const list = el.createEl("ul", { cls: "palee-history-problems" });
  for (const p of problems) {
    const item = list.createEl("li");
    pathLink(item, p.path.slice(p.path.lastIndexOf("/") + 1), () => actions.openPath(p.path));
    item.createSpan({ text: `: ${p.text}`, cls: "palee-history-muted" });
  }
}
