/**
 * The built plugin's study history view in a real browser (Debian's chromium through playwright-core), from
 * the README's scene (support/scenes.ts: a month of study on four topics): the 14-day chart draws one bar per
 * day with heights in proportion to that day's minutes, the 12-week chart twelve bars, and at a 360 px phone
 * width nothing is wider than the view or drawn outside it, light and dark, with good data or absurd data.
 * Skipped, with one message, where chromium is not installed; `npm run build` first when running jest alone.
 */
import { installPluginTestEnvironment } from "../plugin/support/plugin-harness";
import type { PageJob, PageResult } from "./support/browser";
import { chromiumStatus, runPages } from "./support/browser";
import { THEMES, WIDTHS, pageHtml } from "./support/page";
import { SCENES, badHistoryView, historyDayMinutes } from "./support/scenes";

installPluginTestEnvironment();

const status = chromiumStatus();
if (!status.chromium) process.stdout.write(`\n${status.message}\n\n`);
const inBrowser = status.chromium ? describe : describe.skip;

const DAY_BARS = '.palee-history-svg rect:not([data-key*="-W"])';
const WEEK_BARS = '.palee-history-svg rect[data-key*="-W"]';
/** The year scrolls sideways on a phone; its weekday labels must stay in sight (issue 38). */
const YEAR_SCROLL = { box: ".palee-year-scroll", keep: ".palee-year-weekdays text" };
/** Boxes nothing may leave: the view's content, and each chart's drawing area. */
const WITHIN = [".view-content", ".palee-history-svg"];

inBrowser("the study history view in a real browser", () => {
  const results = new Map<string, PageResult>();

  beforeAll(async () => {
    const scene = SCENES.find((s) => s.name === "history-view");
    if (!scene) throw new Error("no history-view scene");
    const view = await scene.render();
    const bad = await badHistoryView();
    const jobs: PageJob[] = [
      { name: "days", html: pageHtml(view, "light", "desktop"), width: WIDTHS.desktop, bars: DAY_BARS },
      { name: "weeks", html: pageHtml(view, "light", "desktop"), width: WIDTHS.desktop, bars: WEEK_BARS },
      { name: "phone days", html: pageHtml(view, "dark", "phone"), width: WIDTHS.phone, bars: DAY_BARS },
    ];
    jobs.push({
      name: "year phone",
      html: pageHtml(view, "light", "phone"),
      width: WIDTHS.phone,
      scrolled: YEAR_SCROLL,
    });
    for (const theme of THEMES) {
      jobs.push({ name: `phone ${theme}`, html: pageHtml(view, theme, "phone"), width: WIDTHS.phone, within: WITHIN });
      jobs.push({
        name: `bad phone ${theme}`,
        html: pageHtml(bad, theme, "phone"),
        width: WIDTHS.phone,
        within: WITHIN,
        bars: ".palee-history-svg rect",
      });
    }
    for (const result of runPages(jobs)) results.set(result.name, result);
  }, 180_000);

  describe("the 14-day chart", () => {
    const expected = historyDayMinutes(14);
    const max = Math.max(...expected.map((d) => d.minutes));

    it("the scene has what the check needs: empty days, and one day above the rest", () => {
      expect(expected.filter((d) => d.minutes === 0).length).toBeGreaterThanOrEqual(2);
      expect(expected.filter((d) => d.minutes === max)).toHaveLength(1);
    });

    it.each(["days", "phone days"])("%s: one bar per day, heights in proportion to the minutes", (page) => {
      const heights = results.get(page)?.bars ?? [];
      expect(heights).toHaveLength(14);
      const tallest = Math.max(...heights);
      expect(tallest).toBeGreaterThan(50); // drawn at a readable size, not squashed
      // The tallest bar is the day with the most minutes; an empty day has an empty bar.
      expect(heights.indexOf(tallest)).toBe(expected.findIndex((d) => d.minutes === max));
      expected.forEach((d, i) => {
        if (d.minutes === 0) expect([d.date, heights[i]]).toEqual([d.date, 0]);
      });
      // Every bar against the tallest: within a pixel of minutes / most minutes (rounding).
      const off = expected
        .map((d, i) => ({ date: d.date, height: heights[i], want: (d.minutes / max) * tallest }))
        .filter(({ height, want }) => Math.abs(height - want) > 1);
      expect(off).toEqual([]);
    });
  });

  it("the 12-week chart has twelve bars", () => {
    const heights = results.get("weeks")?.bars ?? [];
    expect(heights).toHaveLength(12);
    expect(heights.filter((h) => h > 0).length).toBeGreaterThan(6);
  });

  it.each(THEMES)("at a 360 px phone width (%s), nothing is wider than the view or leaves it, or a chart", (theme) => {
    const page = results.get(`phone ${theme}`);
    expect(page?.escapes).toEqual([]);
    expect(page?.overflow).toEqual([]);
  });

  it.each(THEMES)("absurd sessions (%s) keep the view and the charts in their boxes at 360 px", (theme) => {
    const page = results.get(`bad phone ${theme}`);
    expect(page?.escapes).toEqual([]);
    expect(page?.overflow).toEqual([]);
    expect(page?.bars).toHaveLength(26);
    expect(page?.bars?.every((h) => Number.isFinite(h) && h >= 0)).toBe(true);
  });

  it("at a 360 px phone width, the year scrolls sideways and its weekday labels stay in sight at both ends", () => {
    const scrolled = results.get("year phone")?.scrolled;
    expect(scrolled?.scrolls).toBe(true);
    expect(scrolled?.kept).toBe(3); // Mon, Wed, Fri
    expect(scrolled?.hidden).toEqual([]);
  });

  it("reports labels that scroll away with the year (so a clean result means something)", () => {
    // The year as it was drawn before issue 38: the labels inside the drawing that scrolls.
    const [result] = runPages([
      {
        name: "labels inside",
        width: WIDTHS.phone,
        scrolled: { box: ".palee-year-scroll", keep: ".palee-year-weekdays text" },
        html: `<!doctype html><div class="palee-year-scroll" style="overflow-x: auto; direction: rtl; width: 300px">
          <svg class="palee-year-weekdays" width="700" height="20" style="display: block; direction: ltr">
          <text x="0" y="12">Mon</text><rect x="30" width="10" height="10"/></svg></div>`,
      },
    ]);
    expect(result.scrolled?.scrolls).toBe(true);
    expect(result.scrolled?.hidden.join("\n")).toMatch(/right end: text "Mon" \[-?\d+\.\.-?\d+\] outside/);
  });

  it("reports what escapes its box (so a clean result means something)", () => {
    const [result] = runPages([
      {
        name: "escaping",
        width: WIDTHS.phone,
        within: [".view-content", "svg"],
        html: `<!doctype html><div class="view-content" style="width: 300px; overflow: auto">
          <div style="width: 500px">wide</div></div>
          <svg width="100" height="50" viewBox="0 0 100 50" overflow="visible">
          <rect x="10" y="-20" width="10" height="80"/></svg>`,
      },
    ]);
    expect(result.escapes?.join("\n")).toMatch(/\.view-content: div\.view-content is 500px wide in 300px/);
    expect(result.escapes?.join("\n")).toMatch(/svg: rect .* outside/);
  });
});
