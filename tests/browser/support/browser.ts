/**
 * The jsdom side's handle on the real browser: pages go to scripts/browser/run-pages.mjs, a separate Node
 * process (playwright-core does not load inside jest's jsdom environment), which loads them in Debian's
 * chromium and reports overflow and bar heights, and takes screenshots.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");
const RUN_PAGES = path.join(ROOT, "scripts/browser/run-pages.mjs");

export interface PageJob {
  name: string;
  html: string;
  width: number;
  height?: number;
  /** Device pixels per CSS pixel of the screenshot. */
  scale?: number;
  /** Where to write a full-page PNG. */
  screenshot?: string;
  /** Photograph only the viewport: a picture of exactly width × height (times scale), the rest cut off. */
  clip?: boolean;
  /** CSS selector of chart bars whose rendered heights are wanted. */
  bars?: string;
  /** CSS selectors of boxes nothing may escape: no descendant wider than its box, none drawn outside it. */
  within?: string[];
  /** A box that scrolls sideways, scrolled to each end: the `keep` elements must stay in sight. */
  scrolled?: { box: string; keep: string };
}

export interface PageResult {
  name: string;
  /** Elements reaching past the viewport's right or left edge, or scrolling sideways; empty when none. */
  overflow: string[];
  /** Setting labels squeezed under 8em wide by their controls; empty when none. */
  cramped: string[];
  bars?: number[];
  /** What escapes the `within` boxes; empty when nothing does. */
  escapes?: string[];
  /** Whether the `scrolled` box could scroll, and what went out of sight at either end. */
  scrolled?: { scrolls: boolean; kept: number; hidden: string[] };
}

/** The installed chromium, or null with the message to print. */
export function chromiumStatus(): { chromium: string | null; message: string } {
  const run = spawnSync(process.execPath, [RUN_PAGES, "--where"], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${RUN_PAGES} --where failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { chromium: string | null; message: string };
}

/** Loads each page in one headless chromium and returns what it measured. */
export function runPages(pages: PageJob[]): PageResult[] {
  const run = spawnSync(process.execPath, [RUN_PAGES], {
    input: JSON.stringify({ pages }),
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`the browser run failed (${run.status ?? run.signal}): ${run.stderr}`);
  return (JSON.parse(run.stdout) as { pages: PageResult[] }).pages;
}

/**
 * The rendered heights (CSS px) of the bars `selector` picks in `html`, in document order, as the real
 * browser lays them out at `width`. For the history view's chart: one bar per day, heights proportional
 * to the minutes studied.
 */
export function barHeights(html: string, selector: string, width = 900): number[] {
  const [result] = runPages([{ name: "bars", html, width, bars: selector }]);
  return result.bars ?? [];
}
