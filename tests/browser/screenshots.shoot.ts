/**
 * `npm run screenshots`: photographs every scene of tests/browser/support/scenes.ts from the built plugin in
 * headless chromium, light and dark, desktop and phone width, into docs/images/<scene>-<width>-<theme>.png.
 * Our DOM with a stand-in for Obsidian's theme (support/obsidian-standin.css), not the app's own rendering.
 * Then the listing pictures (support/listing.ts): docs/images/listing-<theme>-<1280x720|512x288>.png.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { installPluginTestEnvironment } from "../plugin/support/plugin-harness";
import type { PageJob } from "./support/browser";
import { chromiumStatus, runPages } from "./support/browser";
import type { Width } from "./support/page";
import { THEMES, WIDTHS, pageHtml } from "./support/page";
import { SCENES, obsidianSettingMarkup } from "./support/scenes";
import { LISTING, LISTING_SCALES, listingHtml } from "./support/listing";

installPluginTestEnvironment();

const OUT = path.resolve(__dirname, "../../docs/images");

it("photographs every scene", async () => {
  const status = chromiumStatus();
  if (!status.chromium) throw new Error(status.message);
  mkdirSync(OUT, { recursive: true });
  const undo = obsidianSettingMarkup();
  const jobs: PageJob[] = [];
  const rendered = new Map<string, HTMLElement>();
  try {
    for (const scene of SCENES) {
      const element = await scene.render();
      rendered.set(scene.name, element);
      for (const width of Object.keys(WIDTHS) as Width[]) {
        for (const theme of THEMES) {
          const name = `${scene.name}-${width}-${theme}`;
          jobs.push({
            name,
            html: pageHtml(element, theme, width),
            width: WIDTHS[width],
            screenshot: path.join(OUT, `${name}.png`),
          });
        }
      }
    }
    const view = rendered.get("history-view");
    const dialog = rendered.get("end-dialog");
    if (!view || !dialog) throw new Error("the listing needs the history-view and end-dialog scenes");
    for (const theme of THEMES) {
      for (const { scale, label } of LISTING_SCALES) {
        jobs.push({
          name: `listing-${theme}-${label}`,
          html: listingHtml(view, dialog, theme),
          width: LISTING.width,
          height: LISTING.height,
          scale,
          clip: true,
          screenshot: path.join(OUT, `listing-${theme}-${label}.png`),
        });
      }
    }
  } finally {
    undo();
  }
  const results = runPages(jobs);
  for (const r of results) {
    const problems = [...r.overflow, ...r.cramped];
    process.stdout.write(
      `docs/images/${r.name}.png${problems.length ? `  (layout problems: ${problems.join("; ")})` : ""}\n`,
    );
  }
  expect(results).toHaveLength(jobs.length);
});
