/**
 * The study history view (contract §5): the open session, today / this week / streak, bar charts of the last 14
 * days and 12 weeks, the topics and the newest sessions. `historyModel` turns sessions into what is shown and
 * `renderHistory` draws it from that data alone (a script or a test can mount it without the plugin); the
 * view only loads data and refreshes. Every recorded text is set as text, never as HTML.
 */
import { ItemView } from "obsidian";
import type { WorkspaceLeaf } from "obsidian";
import type { DayTotal, FlaggedSession, InsightSession, SessionStats, WeekTotal } from "../../core/insight/stats";
import { computeStats, countedMinutes, daySeries, weekSeries } from "../../core/insight/stats";
import type { Skipped } from "../../core/records";
import { studiedMs } from "../../core/honest-time";
import type { OffsetAt } from "../../core/time";
import { formatDuration, formatElapsed } from "../../core/time";
import { plural, renderChart } from "./history-chart";
import type { OpenState } from "../session-controller";

/** One constant for the view: its type (saved in workspaces), its name and its icon. */
export const HISTORY_VIEW = { type: "palee-history", name: "Study history", icon: "chart-column" } as const;

const RECENT_COUNT = 10;
const DAY_BARS = 14;
const WEEK_BARS = 12;

export interface RecentSession {
  path: string;
  sessionId: string;
  topicId: string;
  /** "2026-12-01 14:02", the recorded local time. */
  when: string;
  minutes: number;
  flagged: boolean;
}

export interface OpenSessionModel {
  topicId: string;
  startedMs: number;
  /** The timer shows the time studied: breaks excluded, frozen at the pause. */
  pausedMs: number | null;
  breakMinutes: number;
  device: string | null;
  /** Whether this device runs it (only then can it be paused, continued or ended here). */
  endable: boolean;
  interrupted: boolean;
}

export interface HistoryModel {
  stats: SessionStats;
  days: DayTotal[];
  weeks: WeekTotal[];
  recent: RecentSession[];
  /** Notes to look at: skipped files and sessions whose values were clamped or left out. */
  problems: Array<{ path: string; text: string }>;
  open: OpenSessionModel | null;
  showSeconds: boolean;
}

export interface HistoryInput {
  /** Newest first, as scans give them. */
  confirmed: readonly InsightSession[];
  skipped: readonly Skipped[];
  now: number;
  offsetAt: OffsetAt;
  open: OpenState | null;
  showSeconds: boolean;
}

/** "2026-12-01T14:02:00+01:00" → "2026-12-01 14:02": the learner's wall clock as recorded. */
const recordedWhen = (timestamp: string): string => `${timestamp.slice(0, 10)} ${timestamp.slice(11, 16)}`.trim();

export function historyModel(input: HistoryInput): HistoryModel {
  const { confirmed, now, offsetAt } = input;
  const stats = computeStats(confirmed, { now, offsetAt });
  const flaggedIds = new Set(stats.flagged.map((f: FlaggedSession) => f.sessionId));
  const recent = confirmed.slice(0, RECENT_COUNT).map((s) => ({
    path: s.path,
    sessionId: s.sessionId,
    topicId: s.topicId,
    when: recordedWhen(s.startedAt),
    minutes: countedMinutes(s, now, offsetAt).minutes,
    flagged: flaggedIds.has(s.sessionId),
  }));
  const open = input.open
    ? {
        topicId: input.open.session.topicId,
        startedMs: input.open.startedMs,
        pausedMs: input.open.pausedMs,
        breakMinutes: input.open.session.breakMinutes,
        device: input.open.session.device,
        endable: input.open.mine && input.open.running,
        interrupted: !input.open.running,
      }
    : null;
  return {
    stats,
    days: daySeries(stats, stats.today.date, DAY_BARS),
    weeks: weekSeries(stats, stats.today.date, WEEK_BARS),
    recent,
    problems: [
      ...input.skipped.map((s) => ({ path: s.path, text: s.reason })),
      ...stats.flagged.map((f) => ({ path: f.path, text: f.problem })),
    ],
    open,
    showSeconds: input.showSeconds,
  };
}

export interface HistoryActions {
  /** Opens a vault path (a session note). */
  openPath(path: string): void;
  /** Opens a wikilink's target (a topic note). */
  openLink(linktext: string): void;
  end(): void;
  pause(): void;
  continueSession(): void;
  recover(): void;
}

/** "[[Rust ownership|Rust]]" → "Rust ownership"; null when it is not one wikilink. */
export function linkTarget(topicNote: string | null): string | null {
  const m = topicNote ? /^\s*\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]\s*$/.exec(topicNote) : null;
  return m ? m[1].trim() : null;
}

function link(parent: HTMLElement, text: string, onOpen: () => void): HTMLElement {
  const a = parent.createEl("a", { text, cls: "palee-history-link", href: "#" });
  a.addEventListener("click", (event) => {
    event.preventDefault();
    onOpen();
  });
  return a;
}

/** Draws the model into `el` (emptied first). `tick` updates only the timer text. */
export function renderHistory(
  el: HTMLElement,
  model: HistoryModel,
  actions: HistoryActions,
): { tick(now: number): void } {
  el.empty();
  el.addClass("palee-history");
  const timer = renderOpen(el, model, actions);
  renderSummary(el, model.stats);
  renderChart(
    el,
    "Minutes per day, last 14 days",
    model.days.map((d) => ({
      key: d.date,
      label: d.date.slice(8),
      title: d.date,
      minutes: d.minutes,
      sessions: d.sessions,
    })),
  );
  renderChart(
    el,
    "Minutes per week, last 12 weeks",
    model.weeks.map((w) => ({
      key: w.week,
      label: w.week.slice(6),
      title: `${w.week}, from ${w.start}`,
      minutes: w.minutes,
      sessions: w.sessions,
    })),
  );
  renderTopics(el, model.stats, actions);
  renderRecent(el, model.recent, actions);
  renderProblems(el, model.problems, actions);
  return {
    tick(now: number) {
      if (timer && model.open) timer.setText(formatElapsed(studiedMs(model.open, now), model.showSeconds));
    },
  };
}

function renderOpen(el: HTMLElement, model: HistoryModel, actions: HistoryActions): HTMLElement | null {
  const box = el.createDiv({ cls: "palee-history-open" });
  const open = model.open;
  if (!open) {
    box.createEl("p", { text: "No session is open.", cls: "palee-history-muted" });
    return null;
  }
  box.createDiv({ text: open.topicId, cls: "palee-history-open-topic" });
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

function renderSummary(el: HTMLElement, stats: SessionStats): void {
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
  cell("Streak", plural(stats.streak.current, "day"), `longest ${plural(stats.streak.longest, "day")}`);
}

function renderTopics(el: HTMLElement, stats: SessionStats, actions: HistoryActions): void {
  el.createDiv({ text: "Topics", cls: "palee-history-heading" });
  if (stats.byTopic.length === 0) {
    el.createEl("p", { text: "No sessions yet: end a session to see your topics here.", cls: "palee-history-muted" });
    return;
  }
  const table = el.createEl("table", { cls: "palee-history-topics" });
  const head = table.createEl("tr");
  for (const title of ["Topic", "Total", "Sessions", "Last studied"]) head.createEl("th", { text: title });
  for (const topic of stats.byTopic) {
    const row = table.createEl("tr");
    const name = row.createEl("td");
    const target = linkTarget(topic.topicNote);
    if (target) link(name, topic.topicId, () => actions.openLink(target)).setAttr("title", target);
    else name.setText(topic.topicId);
    row.createEl("td", { text: formatDuration(topic.minutes) });
    row.createEl("td", { text: String(topic.sessions) });
    row.createEl("td", { text: topic.last });
  }
}

function renderRecent(el: HTMLElement, recent: readonly RecentSession[], actions: HistoryActions): void {
  el.createDiv({ text: "Recent sessions", cls: "palee-history-heading" });
  const list = el.createEl("ul", { cls: "palee-history-recent" });
  for (const s of recent) {
    const item = list.createEl("li");
    link(item, `${s.when} · ${s.topicId}`, () => actions.openPath(s.path)).setAttr("title", s.sessionId);
    item.createSpan({
      text: ` · ${formatDuration(s.minutes)}${s.flagged ? " (see below)" : ""}`,
      cls: "palee-history-muted",
    });
  }
}

function renderProblems(el: HTMLElement, problems: HistoryModel["problems"], actions: HistoryActions): void {
  if (problems.length === 0) return;
  el.createDiv({ text: `Notes to check (${problems.length})`, cls: "palee-history-heading" });
  const list = el.createEl("ul", { cls: "palee-history-problems" });
  for (const p of problems) {
    const item = list.createEl("li");
    link(item, p.path.slice(p.path.lastIndexOf("/") + 1), () => actions.openPath(p.path));
    item.createSpan({ text: `: ${p.text}`, cls: "palee-history-muted" });
  }
}

// ---- the view ------------------------------------------------------------------------------------------

export interface HistorySource {
  /** The data to show now: loads through the metadata cache, never reading the whole folder again. */
  load(): Promise<HistoryModel>;
  /** Calls back when a session may have changed (open session, a session file); returns an unsubscribe. */
  onChange(listener: () => void): () => void;
  now(): number;
  actions: HistoryActions;
}

/** Debounce for bursts of file events (a sync landing many files): one refresh for the lot. */
const REFRESH_DELAY_MS = 200;

export class HistoryView extends ItemView {
  private tickTimer: { tick(now: number): void } | null = null;
  private loading: Promise<void> | null = null;
  private again = false;
  private pending: number | null = null;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly source: HistorySource,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return HISTORY_VIEW.type;
  }

  getDisplayText(): string {
    return HISTORY_VIEW.name;
  }

  getIcon(): string {
    return HISTORY_VIEW.icon;
  }

  async onOpen(): Promise<void> {
    this.register(this.source.onChange(() => this.scheduleRefresh()));
    this.registerInterval(window.setInterval(() => this.tickTimer?.tick(this.source.now()), 1000));
    await this.refresh();
  }

  async onClose(): Promise<void> {
    if (this.pending !== null) window.clearTimeout(this.pending);
    this.pending = null;
    this.contentEl.empty();
    return Promise.resolve();
  }

  private scheduleRefresh(): void {
    if (this.pending !== null) return;
    this.pending = window.setTimeout(() => {
      this.pending = null;
      void this.refresh();
    }, REFRESH_DELAY_MS);
  }

  /** Loads and draws; a refresh asked for while one runs runs once more afterwards. */
  refresh(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        try {
          const model = await this.source.load();
          this.tickTimer = renderHistory(this.contentEl, model, this.source.actions);
          this.tickTimer.tick(this.source.now());
        } catch (error) {
          console.error("PALEE Sessions: history view", error);
          this.contentEl.empty();
          this.contentEl.createEl("p", {
            text: "Could not read the study history. See the developer console for details.",
          });
        }
      } while (this.again);
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }
}
