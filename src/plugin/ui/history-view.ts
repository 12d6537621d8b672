/**
 * The study history view (contract §5): the open session, today / this week / streak, bar charts of the last 14
 * days and 12 weeks, the topics and the newest sessions. `historyModel` turns sessions into what is shown and
 * `renderHistory` draws it from that data alone (a script or a test can mount it without the plugin); the
 * view only loads data and refreshes. Every recorded text is set as text, never as HTML.
 */
import { ItemView } from "obsidian";
import type { HoverParent, HoverPopover, PaneType, WorkspaceLeaf } from "obsidian";
import { studiedMs } from "../../core/honest-time";
import { formatElapsed } from "../../core/time";
import { openTables, renderChart } from "./history-chart";
import type { HistoryActions } from "./history-sections";
import {
  renderOpenBox,
  renderProblems,
  renderRecent,
  renderSummary,
  renderTopics,
  topicShown,
} from "./history-sections";
import type { HistoryModel, OpenSessionModel } from "./history-model";
import type { YearDrawing } from "./history-goals";
import { KeptNodes } from "./kept-nodes";
import { renderThisWeek, renderYear } from "./history-goals";
import { renderNextUp } from "./next-up";

export type { HistoryInput, HistoryModel, OpenSessionModel, RecentSession } from "./history-model";
export { historyModel, openSessionModel } from "./history-model";
export type { HistoryActions } from "./history-sections";
export { linkTarget } from "./history-sections";

/** One constant for the view: its type (saved in workspaces), its name and its icon. */
export const HISTORY_VIEW = { type: "palee-history", name: "Study history", icon: "chart-column" } as const;

/** What a drawn view can update in place: the timer's text, the open session's box, the history below it. */
export interface HistoryHandle {
  tick(now: number): void;
  /** Redraws only the open session's box (the history below stays as drawn). */
  setOpen(open: OpenSessionModel | null): void;
  /** Redraws the history below the open session's box, keeping open tables open. */
  setHistory(model: HistoryModel): void;
}

/**
 * Draws the model into `el` (emptied first): the open session's box, then the history. The handle updates
 * either part in place, so a redraw of one never disturbs the other (focus on Pause or End, open tables).
 */
export function renderHistory(el: HTMLElement, model: HistoryModel, actions: HistoryActions): HistoryHandle {
  el.empty();
  el.addClass("palee-history");
  const box = el.createDiv({ cls: "palee-history-open" });
  const body = el.createDiv({ cls: "palee-history-body" });
  let open = model.open;
  let showSeconds = model.showSeconds;
  let timer: HTMLElement | null = null;
  const kept: Kept = { year: null, nodes: new KeptNodes() };
  const handle: HistoryHandle = {
    tick(now) {
      if (timer && open) timer.setText(formatElapsed(studiedMs(open, now), showSeconds));
    },
    setOpen(next) {
      const focused = focusedButton(box);
      open = next;
      timer = renderOpenBox(box, next, actions);
      if (focused !== null) (box.querySelectorAll("button")[focused] as HTMLElement | undefined)?.focus();
    },
    setHistory(next) {
      const tables = openTables(body);
      showSeconds = next.showSeconds;
      body.empty();
      renderBody(body, next, actions, tables, kept);
    },
  };
  handle.setOpen(open);
  renderBody(body, model, actions, new Set(), kept);
  return handle;
}

/** The index of the focused button inside `box`, or null (so a redraw of the box can give focus back). */
function focusedButton(box: HTMLElement): number | null {
  const active = box.ownerDocument.activeElement;
  if (!active || !box.contains(active)) return null;
  const index = Array.from(box.querySelectorAll("button")).indexOf(active as HTMLButtonElement);
  return index < 0 ? null : index;
}

/** What a redraw takes over from the last one instead of drawing it again: the year's cells, unchanged parts. */
interface Kept {
  year: YearDrawing | null;
  nodes: KeptNodes;
}

/** One part of the history, kept from the last redraw when `data` (all it shows) is the same. */
function part(el: HTMLElement, kept: Kept, name: string, data: unknown, draw: (into: HTMLElement) => void): void {
  kept.nodes.take(el, `${name}:${JSON.stringify(data)}`, (parent) => {
    const into = parent.createDiv({ cls: "palee-history-part" });
    draw(into);
    return into;
  });
}

function renderBody(
  el: HTMLElement,
  model: HistoryModel,
  actions: HistoryActions,
  tables: Set<string>,
  kept: Kept,
): void {
  const start = actions.startTopic && ((topicId: string) => actions.startTopic?.(topicId));
  part(el, kept, "next", [model.nextUp, !!start], (into) => renderNextUp(into, model.nextUp, start));
  const { stats, goals } = model;
  const summary = [
    stats.today,
    stats.thisWeek,
    stats.lastWeek,
    stats.streak,
    goals?.report.weekStreak,
    goals?.year.studyDays,
  ];
  part(el, kept, "summary", summary, (into) => renderSummary(into, stats, goals));
  if (goals) {
    const names = topicNames(model, actions);
    const week = [goals.report, goals.openMinutes, goals.openTopicId, [...names]];
    part(el, kept, "week", week, (into) => renderThisWeek(into, goals, names));
  }
  const dayCaption = "Minutes per day, last 14 days";
  const dayBars = model.days.map((d) => ({
    key: d.date,
    label: d.date.slice(8),
    title: d.date,
    minutes: d.minutes,
    sessions: d.sessions,
  }));
  const dayTable = tables.has(dayCaption);
  part(el, kept, "chart", [dayCaption, dayBars, dayTable], (into) => renderChart(into, dayCaption, dayBars, dayTable));
  const weekCaption = "Minutes per week, last 12 weeks";
  const weekBars = model.weeks.map((w) => ({
    key: w.week,
    label: w.week.slice(6),
    title: `${w.week}, from ${w.start}`,
    minutes: w.minutes,
    sessions: w.sessions,
  }));
  const weekTable = tables.has(weekCaption);
  part(el, kept, "chart", [weekCaption, weekBars, weekTable], (into) =>
    renderChart(into, weekCaption, weekBars, weekTable),
  );
  kept.year = goals ? renderYear(el, goals.year, kept.year) : null;
  renderTopics(el, stats, actions, kept.nodes);
  renderRecent(el, model.recent, actions, kept.nodes);
  part(el, kept, "problems", model.problems, (into) => renderProblems(into, model.problems, actions));
  kept.nodes.done();
}

/** Each topic's note name where it has one (topicShown), for "This week". */
function topicNames(model: HistoryModel, actions: HistoryActions): Map<string, string> {
  const names = new Map<string, string>();
  const recorded = new Map(model.stats.byTopic.map((t) => [t.topicId, t.topicNote]));
  for (const { topicId } of model.goals?.report.topics ?? []) {
    const shown = topicShown(actions, topicId, recorded.get(topicId));
    if (shown !== topicId) names.set(topicId, shown);
  }
  return names;
}

// ---- the view ------------------------------------------------------------------------------------------

/** What changed: "history", a confirmed note or another file of the folder (not a draft); "open", the open session. */
export type HistoryChange = "history" | "open";

export interface HistorySource {
  /** The data to show now: loads through the metadata cache, never reading the whole folder again. */
  load(): Promise<HistoryModel>;
  /** The open session as shown, from memory (no file access): compared on each change and tick. */
  openSession(): OpenSessionModel | null;
  /**
   * Calls back when what the view shows may have changed; returns an unsubscribe. A draft's autosave (every
   * ~2 s while the learner types) is not a "history" change: only the open session's state can follow from it.
   */
  onChange(listener: (what: HistoryChange) => void): () => void;
  now(): number;
  /** Where the view's links resolve from (a note of the session folder). */
  sourcePath(): string;
  actions: HistoryActions;
}

/** Debounce for bursts of file events (a sync landing many files): one refresh for the lot. */
const REFRESH_DELAY_MS = 200;

export class HistoryView extends ItemView implements HoverParent {
  hoverPopover: HoverPopover | null = null;
  private drawn: HistoryHandle | null = null;
  /** The open session as last drawn (JSON): the box is redrawn only when it differs. */
  private openKey = "";
  private ready = false;
  private closed = false;
  private loading: Promise<void> | null = null;
  private again = false;
  private pending: number | null = null;
  private readonly actions: HistoryActions;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly source: HistorySource,
  ) {
    super(leaf);
    this.actions = {
      ...source.actions,
      openLink: (linktext: string, newLeaf: PaneType | boolean) => source.actions.openLink(linktext, newLeaf),
      hoverLink: (event, targetEl, linktext) =>
        this.app.workspace.trigger("hover-link", {
          event,
          source: HISTORY_VIEW.type,
          hoverParent: this,
          targetEl,
          linktext,
          sourcePath: source.sourcePath(),
        }),
    };
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

  /**
   * A view restored with the workspace opens before layout ready: it reads nothing until then (the first
   * load scans the session folder), and shows a line saying so.
   */
  async onOpen(): Promise<void> {
    this.register(this.source.onChange((what) => (what === "open" ? this.openChanged() : this.scheduleRefresh())));
    this.registerInterval(window.setInterval(() => this.tick(), 1000));
    if (this.app.workspace.layoutReady) {
      this.ready = true;
      await this.refresh();
      return;
    }
    this.contentEl.empty();
    this.contentEl.createEl("p", { text: "Loading the study history…", cls: "palee-history-muted" });
    this.app.workspace.onLayoutReady(() => {
      if (this.closed) return; // closed before the workspace was ready: nothing to draw
      this.ready = true;
      void this.refresh();
    });
  }

  async onClose(): Promise<void> {
    if (this.pending !== null) window.clearTimeout(this.pending);
    this.pending = null;
    this.ready = false;
    this.closed = true;
    this.contentEl.empty();
    return Promise.resolve();
  }

  private tick(): void {
    if (!this.drawn) return;
    // Another device's session can go quiet without any event: its box follows on the next tick.
    this.openChanged();
    this.drawn.tick(this.source.now());
  }

  /** The open session's box, redrawn in place only when what it shows changed (never the history below). */
  private openChanged(): void {
    if (!this.drawn) return;
    const open = this.source.openSession();
    const key = JSON.stringify(open);
    if (key === this.openKey) return;
    this.openKey = key;
    this.drawn.setOpen(open);
    this.drawn.tick(this.source.now());
  }

  private scheduleRefresh(): void {
    if (!this.ready || this.pending !== null) return;
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
          this.draw(await this.source.load());
        } catch (error) {
          console.error("PALEE Sessions: history view", error);
          this.drawn = null;
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

  /** The first time (or after a failure) draws everything; later, the history in place and the box if it changed. */
  private draw(model: HistoryModel): void {
    const scroll = this.contentEl.scrollTop;
    if (this.drawn) {
      this.drawn.setHistory(model);
      this.openChanged();
    } else {
      this.drawn = renderHistory(this.contentEl, model, this.actions);
      this.openKey = JSON.stringify(model.open);
    }
    this.contentEl.scrollTop = scroll;
    this.drawn.tick(this.source.now());
  }
}
