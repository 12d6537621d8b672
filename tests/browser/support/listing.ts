/**
 * Pictures for the community directory's listing: 16:9, at 1280 × 720 and at 512 × 288 (the size Obsidian's
 * directory documents for its 16:9 thumbnails; it documents none for plugin pictures, so both are made). One
 * page shows the study history view beside the end dialog, with a caption band saying what the picture is:
 * our plugin's DOM with a stand-in for Obsidian's theme, not the app's own rendering.
 */
import type { Theme } from "./page";
import { pageHtml } from "./page";

export const LISTING = { width: 1280, height: 720 } as const;
/** Device-pixel scales of the listing page: 1280 × 720 and 512 × 288. */
export const LISTING_SCALES = [
  { scale: 1, label: "1280x720" },
  { scale: 0.4, label: "512x288" },
] as const;

export const LISTING_CAPTION =
  "PALEE Sessions: our plugin's DOM with a stand-in for Obsidian's theme, not a screenshot of the Obsidian app.";

const CAPTION_PX = 44;

/** The layout of the listing page only (never part of styles.css): two panes side by side, the caption below. */
const LISTING_CSS = `
html, body { margin: 0; padding: 0; height: ${LISTING.height}px; overflow: hidden; }
.palee-listing { height: ${LISTING.height}px; overflow: hidden; }
.palee-listing-panes { display: flex; gap: 24px; padding: 20px 24px 0; box-sizing: border-box;
  height: ${LISTING.height - CAPTION_PX}px; overflow: hidden; }
.palee-listing-pane { overflow: hidden; min-width: 0; }
.palee-listing-pane.is-view { flex: 0 0 420px; }
.palee-listing-pane.is-dialog { flex: 1; }
.palee-listing-caption { box-sizing: border-box; height: ${CAPTION_PX}px; padding: 0 24px; display: flex;
  align-items: center; font-size: 14px; color: var(--text-normal); font-family: var(--font-interface);
  border-top: 1px solid var(--background-modifier-border); background: var(--background-secondary); }
`;

/** The listing page: `view` (a framed sidebar leaf) and `dialog` (a framed modal), both rendered by the plugin. */
export function listingHtml(view: HTMLElement, dialog: HTMLElement, theme: Theme): string {
  const page = createDiv({ cls: "palee-listing" });
  const panes = page.createDiv({ cls: "palee-listing-panes" });
  panes.createDiv({ cls: "palee-listing-pane is-view" }).appendChild(view.cloneNode(true));
  panes.createDiv({ cls: "palee-listing-pane is-dialog" }).appendChild(dialog.cloneNode(true));
  page.createDiv({ cls: "palee-listing-caption", text: LISTING_CAPTION });
  return pageHtml(page, theme, "desktop").replace("</head>", `<style>${LISTING_CSS}</style></head>`);
}
