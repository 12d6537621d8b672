/**
 * The built plugin's dialogs (and the history view) in a real browser (Debian's chromium through
 * playwright-core): at a 360 px
 * phone width nothing reaches past the screen's edge or scrolls sideways, and no setting label is squeezed
 * by its buttons, in the light and the dark theme. Skipped, with one message, where chromium is not
 * installed (README: "Browser checks and pictures"); `npm run build` first when running jest alone.
 *
 * Starting chromium is slow on a busy machine, so every page is rendered first and loaded in one run.
 */
import { installPluginTestEnvironment } from "../plugin/support/plugin-harness";
import type { PageJob, PageResult } from "./support/browser";
import { chromiumStatus, runPages } from "./support/browser";
import { THEMES, WIDTHS, pageHtml } from "./support/page";
import { SCENES, obsidianSettingMarkup } from "./support/scenes";

installPluginTestEnvironment();

const status = chromiumStatus();
if (!status.chromium) process.stdout.write(`\n${status.message}\n\n`);
const inBrowser = status.chromium ? describe : describe.skip;

/** A page that must fail both checks: a block wider than the phone, a label squeezed to 40 px. */
function badPage(): HTMLElement {
  const modal = createDiv({ cls: "modal" });
  modal.createDiv({ text: "wide", attr: { style: "width: 500px" } });
  const row = modal.createDiv({ cls: "setting-item" });
  row.createDiv({ cls: "setting-item-info", text: "A long label", attr: { style: "flex: 0 0 40px" } });
  return modal;
}

/** Three bars of 50, 20 and 0 px, and one that is not a bar. */
const CHART = `<!doctype html><svg width="120" height="100" viewBox="0 0 120 100">
  <rect class="bar" x="0" y="50" width="10" height="50"/><rect class="bar" x="20" y="80" width="10" height="20"/>
  <rect class="bar" x="40" y="100" width="10" height="0"/>
  <rect class="other" x="60" y="0" width="10" height="100"/></svg>`;

inBrowser("in a real browser", () => {
  const results = new Map<string, PageResult>();
  const phonePages = new Map<string, string[]>();

  beforeAll(async () => {
    const undo = obsidianSettingMarkup();
    const jobs: PageJob[] = [];
    try {
      for (const scene of SCENES) {
        const element = await scene.render();
        const names = THEMES.map((theme) => `${scene.name} (${theme})`);
        phonePages.set(scene.name, names);
        THEMES.forEach((theme, i) =>
          jobs.push({ name: names[i], html: pageHtml(element, theme, "phone"), width: WIDTHS.phone }),
        );
      }
    } finally {
      undo();
    }
    jobs.push({ name: "bad", html: pageHtml(badPage(), "light", "phone"), width: WIDTHS.phone });
    jobs.push({ name: "chart", html: CHART, width: WIDTHS.desktop, bars: "rect.bar" });
    for (const result of runPages(jobs)) results.set(result.name, result);
  }, 180_000);

  describe("the scenes at a 360 px phone width", () => {
    it.each(SCENES.map((scene) => [scene.name]))(
      "%s: nothing overflows and no label is squeezed, light and dark",
      (name) => {
        const pages = phonePages.get(name) ?? [];
        expect(pages).toHaveLength(THEMES.length);
        const found = pages.map((page) => [page, results.get(page)?.overflow, results.get(page)?.cramped]);
        expect(found).toEqual(pages.map((page) => [page, [], []]));
      },
    );

    it("reports what overflows or is squeezed (so a clean result means something)", () => {
      const bad = results.get("bad");
      expect(bad?.overflow.join("\n")).toContain("wide");
      expect(bad?.cramped).toEqual(["40px: A long label"]);
    });
  });

  describe("chart bars, as the browser draws them (barHeights)", () => {
    it("are read in document order with their rendered heights", () => {
      expect(results.get("chart")?.bars).toEqual([50, 20, 0]);
    });
    // The history view's charts are checked in history-view.test.ts.
  });
});
