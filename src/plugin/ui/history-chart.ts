/**
 * The history view's bar charts: one SVG bar per day or week, a caption, and the totals in words. A table of
 * the same numbers is filled only when opened. Every recorded text is set as text, never as HTML.
 */
import { formatDuration } from "../../core/time";

/** "1 session", "3 days": a count with its word. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

export interface Bar {
  key: string;
  label: string;
  title: string;
  minutes: number;
  sessions: number;
}

const CHART = { width: 280, height: 110, label: 14, gap: 3 };

/**
 * Draws one chart into `el`. `tableOpen`: its "Show as a table" was open before a redraw, so it opens filled
 * (the view keeps the learner's open tables open; `data-chart` names each chart's table).
 */
export function renderChart(el: HTMLElement, caption: string, bars: readonly Bar[], tableOpen = false): void {
  const figure = el.createDiv({ cls: "palee-history-chart" });
  const total = bars.reduce((sum, b) => sum + b.minutes, 0);
  const top = bars.reduce((best, b) => (b.minutes > best.minutes ? b : best), bars[0] ?? { minutes: 0, title: "" });
  const most = top && top.minutes > 0 ? `, most on ${top.title} (${formatDuration(top.minutes)})` : "";
  const totals = `${formatDuration(total)} in total${most}.`;
  const summary = `${caption}: ${totals}`;
  figure.createDiv({ text: caption, cls: "palee-history-heading" });
  const max = Math.max(1, ...bars.map((b) => (Number.isFinite(b.minutes) ? b.minutes : 0)));
  const slot = CHART.width / Math.max(1, bars.length);
  const plot = CHART.height - CHART.label;
  const svg = figure.createSvg("svg", {
    cls: "palee-history-svg",
    attr: {
      viewBox: `0 0 ${CHART.width} ${CHART.height}`,
      role: "img",
      "aria-label": summary,
      preserveAspectRatio: "xMidYMid meet",
    },
  });
  // The baseline: a day without study is an empty slot on it, not a gap in the chart.
  svg.createSvg("line", {
    cls: "palee-history-axis",
    attr: { x1: 0, y1: plot + 0.5, x2: CHART.width, y2: plot + 0.5 },
  });
  bars.forEach((bar, i) => {
    const minutes = Number.isFinite(bar.minutes) ? Math.max(0, bar.minutes) : 0;
    const h = Math.round((minutes / max) * (plot - 2) * 10) / 10;
    const g = svg.createSvg("g", { cls: "palee-history-bar-group" });
    const rect = g.createSvg("rect", {
      cls: minutes > 0 ? "palee-history-bar" : "palee-history-bar is-empty",
      attr: {
        x: i * slot + CHART.gap / 2,
        y: plot - h,
        width: slot - CHART.gap,
        height: h,
        "data-key": bar.key,
        "data-minutes": minutes,
      },
    });
    rect.createSvg("title").textContent =
      `${bar.title}: ${formatDuration(minutes)}, ${plural(bar.sessions, "session")}`;
    const text = g.createSvg("text", {
      cls: "palee-history-bar-label",
      attr: { x: i * slot + slot / 2, y: CHART.height - 3, "text-anchor": "middle" },
    });
    text.textContent = bar.label;
  });
  // Bars have no scale: the total and the highest bar in words give them one (a phone has no hover title).
  figure.createDiv({ text: totals, cls: "palee-history-muted palee-history-chart-totals" });
  // The same numbers as text, for screen readers and for anyone who prefers a table.
  // Built when first opened: the chart's aria-label already carries the summary.
  const details = figure.createEl("details", { cls: "palee-history-chart-text", attr: { "data-chart": caption } });
  details.createEl("summary", { text: "Show as a table" });
  const fill = (): void => {
    details.removeEventListener("toggle", fill);
    const table = details.createEl("table");
    const head = table.createEl("tr");
    head.createEl("th", { text: "When" });
    head.createEl("th", { text: "Minutes" });
    head.createEl("th", { text: "Sessions" });
    for (const bar of bars) {
      const row = table.createEl("tr");
      row.createEl("td", { text: bar.title });
      row.createEl("td", { text: String(bar.minutes) });
      row.createEl("td", { text: String(bar.sessions) });
    }
  };
  if (tableOpen) {
    fill();
    details.open = true;
  } else details.addEventListener("toggle", fill);
}

/** The captions of the charts whose table is open in `el` (read before a redraw). */
export function openTables(el: HTMLElement): Set<string> {
  const open = new Set<string>();
  el.querySelectorAll("details[data-chart]").forEach((d) => {
    const caption = d.getAttribute("data-chart");
    if ((d as HTMLDetailsElement).open && caption !== null) open.add(caption);
  });
  return open;
}
