/**
 * Whole HTML pages from the plugin's rendered DOM: our styles.css on top of a stand-in for Obsidian's theme
 * (obsidian-standin.css), in a light or a dark theme, at desktop or phone width.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");
const STANDIN_CSS = readFileSync(path.join(__dirname, "obsidian-standin.css"), "utf8");
const PLUGIN_CSS = readFileSync(path.join(ROOT, "styles.css"), "utf8");

export type Theme = "light" | "dark";
export const THEMES: readonly Theme[] = ["light", "dark"];
export const WIDTHS = { desktop: 760, phone: 360 } as const;
export type Width = keyof typeof WIDTHS;

/** A modal as Obsidian lays it out (title, close button, content), built with DOM calls, never from markup. */
export function modalFrame(title: string, content: HTMLElement): HTMLElement {
  const modal = createDiv({ cls: "modal" });
  modal.createDiv({ cls: "modal-close-button", text: "×" });
  modal.createDiv({ cls: "modal-title", text: title });
  const body = modal.createDiv({ cls: "modal-content" });
  body.appendChild(content.cloneNode(true));
  return modal;
}

/**
 * A view in Obsidian's right sidebar as the app frames it (a leaf with its header, the view's content below),
 * built with DOM calls. The phone width is the whole screen, as the sidebar is there.
 */
export function viewFrame(title: string, content: HTMLElement): HTMLElement {
  const leaf = createDiv({ cls: "workspace-leaf mod-sidebar" });
  const inner = leaf.createDiv({ cls: "workspace-leaf-content" });
  const header = inner.createDiv({ cls: "view-header" });
  header.createDiv({ cls: "view-header-title", text: title });
  const body = content.cloneNode(true) as HTMLElement;
  body.addClass("view-content");
  inner.appendChild(body);
  return leaf;
}

/**
 * Form values live in properties, which serialising drops: copy them into attributes and text first so the
 * picture shows what was typed.
 */
function keepFormValues(root: HTMLElement): void {
  root.querySelectorAll("textarea").forEach((el) => (el.textContent = el.value));
  root.querySelectorAll("input").forEach((el) => {
    el.setAttribute("value", el.value);
    // A chosen radio button or a ticked box: its state lives in a property too.
    if (el.type === "radio" || el.type === "checkbox") el.toggleAttribute("checked", el.checked);
  });
}

export function pageHtml(element: HTMLElement, theme: Theme, width: Width): string {
  keepFormValues(element);
  const bodyClass = `theme-${theme}${width === "phone" ? " is-phone is-mobile" : ""}`;
  return [
    "<!doctype html>",
    '<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<style>${STANDIN_CSS}</style>`,
    `<style>${PLUGIN_CSS}</style>`,
    `</head><body class="${bodyClass}">`,
    element.outerHTML, // reading our own DOM for the browser; nothing is parsed back into the plugin
    "</body></html>",
  ].join("\n");
}
