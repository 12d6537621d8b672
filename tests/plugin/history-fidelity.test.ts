/**
 * The study history view as the real app drives it (contract §5, version 3 "fidelity to the real app"): the
 * editor autosaves the open draft every ~2 s while the learner types, which must not redraw the view (open
 * tables stay open, focus stays on Pause or End); a confirmed note redraws the history but keeps open tables
 * open; the open session's box changes in place; a view restored with the workspace waits for layout ready;
 * links are Obsidian internal links (hover preview, Mod-click for a new tab).
 *
 * How faithful: the autosave is modelled as what Obsidian does on disk (a modify of the draft, then the
 * metadata cache's "changed" once it has parsed it); the editor's own debounce is not modelled here.
 */
import { formatTimestamp, formatUtcCompact } from "../../src/core/time";
import { HISTORY_VIEW } from "../../src/plugin/ui/history-view";
import type { HistoryView } from "../../src/plugin/ui/history-view";
import { confirmedText } from "../support/builders";
import { createHistoryView } from "./support/history-view";
import type { LoadedPlugin } from "./support/plugin-harness";
import { MINUTE, T0, harness, installPluginTestEnvironment, loadPlugin, settle } from "./support/plugin-harness";
import { S, onlyDraft, startOn, textAt } from "./support/session-files";

installPluginTestEnvironment();

const HOUR = 60 * MINUTE;
const stamp = (ms: number): string => formatTimestamp(ms, 0);

let serial = 0;
function confirmed(hoursAgo: number, minutes: number, topicId = "T-rust"): [string, string] {
  const start = T0 - hoursAgo * HOUR;
  const id = `S-${formatUtcCompact(start)}-${(++serial).toString(16).padStart(4, "0")}`;
  const fields = {
    session_id: id,
    topic_id: topicId,
    started_at: stamp(start),
    ended_at: stamp(start + minutes * MINUTE),
    duration_minutes: minutes,
  };
  const topicNote = topicId === "T-go" ? { topic_note: "[[Go notes]]" } : {};
  return [S(id), confirmedText({ ...fields, ...topicNote })];
}

const files = (): Record<string, string> =>
  Object.fromEntries([
    confirmed(30, 45),
    confirmed(54, 20, "T-go"),
    ["Go notes.md", "---\npalee_id: T-go\n---\n# Go\n"],
  ]);

/** Opened and shown in the document (focus needs a connected element). */
async function openView(p: LoadedPlugin): Promise<HistoryView> {
  const view = createHistoryView(p);
  document.body.appendChild(view.containerEl);
  await view.onOpen();
  await settle();
  return view;
}

/** Longer than the view's debounce of file events. */
const waitForRefresh = async (): Promise<void> => {
  await new Promise((resolve) => setTimeout(resolve, 250));
  await settle();
};

const button = (view: HistoryView, text: string): HTMLButtonElement | undefined =>
  Array.from(view.contentEl.querySelectorAll("button")).find((b) => b.textContent === text);

function openDayTable(view: HistoryView): HTMLDetailsElement {
  const details = view.contentEl.querySelector('details[data-chart^="Minutes per day"]') as HTMLDetailsElement;
  details.open = true;
  details.dispatchEvent(new Event("toggle"));
  return details;
}

/** What the editor's autosave does: the draft's body changes on disk, then the metadata cache parses it. */
async function autosave(p: LoadedPlugin, note: string): Promise<void> {
  const draft = onlyDraft(p.h);
  p.h.write(draft, `${textAt(p.h, draft)}\n${note}\n`);
  p.h.catchUpCache();
  await waitForRefresh();
}

describe("study history view in the real app", () => {
  it("does not redraw while the editor autosaves the draft: open tables stay open, focus stays on End", async () => {
    const p = await loadPlugin(harness({ files: files() }), { device: "laptop" });
    await startOn(p, "T-rust");
    p.h.catchUpCache();
    const view = await openView(p);
    const chart = view.contentEl.querySelector("svg.palee-history-svg");
    const details = openDayTable(view);
    const end = button(view, "End");
    end?.focus();
    expect(document.activeElement).toBe(end);
    for (const note of ["Borrowing rules.", "Lifetimes, first pass.", "Moves."]) await autosave(p, note);
    expect(view.contentEl.querySelector("svg.palee-history-svg")).toBe(chart);
    expect(view.contentEl.querySelector('details[data-chart^="Minutes per day"]')).toBe(details);
    expect(details.open).toBe(true);
    expect(document.activeElement).toBe(end);
  });

  it("redraws the history for a confirmed note, keeping the open table open and filled", async () => {
    const p = await loadPlugin(harness({ files: files() }), { device: "laptop" });
    const view = await openView(p);
    const chart = view.contentEl.querySelector("svg.palee-history-svg");
    openDayTable(view);
    const [path, text] = confirmed(2, 30); // synced from another device
    p.h.write(path, text);
    p.h.catchUpCache();
    await waitForRefresh();
    expect(view.contentEl.querySelector("svg.palee-history-svg")).not.toBe(chart);
    expect(view.contentEl.textContent).toMatch(/Today30 min1 session/);
    const reopened = view.contentEl.querySelector('details[data-chart^="Minutes per day"]') as HTMLDetailsElement;
    expect(reopened.open).toBe(true);
    expect(reopened.querySelectorAll("tr")).toHaveLength(15); // the header and 14 days
    const week = view.contentEl.querySelector('details[data-chart^="Minutes per week"]') as HTMLDetailsElement;
    expect(week.open).toBe(false);
  });

  it("changes only the open session's box on pause, giving focus back to its button", async () => {
    const p = await loadPlugin(harness({ files: files() }), { device: "laptop" });
    await startOn(p, "T-rust");
    const view = await openView(p);
    const chart = view.contentEl.querySelector("svg.palee-history-svg");
    const pause = button(view, "Pause");
    pause?.focus();
    pause?.click();
    await settle();
    await waitForRefresh();
    expect(button(view, "Continue")).toBeDefined();
    expect(document.activeElement).toBe(button(view, "Continue"));
    expect(view.contentEl.querySelector("svg.palee-history-svg")).toBe(chart);
  });

  it("reads nothing before layout ready when restored with the workspace, then draws", async () => {
    const p = await loadPlugin(harness({ files: files() }), { device: "laptop", layoutReady: false });
    const controller = (p.plugin as unknown as { controller: { confirmedSessions(): Promise<unknown> } }).controller;
    const scans = jest.spyOn(controller, "confirmedSessions");
    p.h.resetLogs();
    const view = createHistoryView(p);
    await view.onOpen();
    await settle();
    expect(scans).not.toHaveBeenCalled();
    expect(p.h.reads.count()).toBe(0);
    expect(view.contentEl.textContent).toBe("Loading the study history…");
    await p.layoutReady();
    await settle();
    expect(scans).toHaveBeenCalled();
    expect(view.contentEl.querySelectorAll("svg.palee-history-svg")).toHaveLength(2);
  });

  it("draws nothing and reads nothing when closed before layout ready", async () => {
    const p = await loadPlugin(harness({ files: files() }), { device: "laptop", layoutReady: false });
    const controller = (p.plugin as unknown as { controller: { confirmedSessions(): Promise<unknown> } }).controller;
    const scans = jest.spyOn(controller, "confirmedSessions");
    const view = createHistoryView(p);
    await view.onOpen();
    await view.onClose();
    await p.layoutReady();
    await settle();
    expect(scans).not.toHaveBeenCalled();
    expect(view.contentEl.childElementCount).toBe(0);
  });
});

describe("study history links", () => {
  it("are internal links naming their note, previewed on hover through hover-link", async () => {
    const p = await loadPlugin(harness({ files: files() }), { device: "laptop" });
    const view = await openView(p);
    const hovers: unknown[] = [];
    p.h.app.workspace.on("hover-link" as "quit", (info: unknown) => hovers.push(info));
    const recent = view.contentEl.querySelector(".palee-history-recent a") as HTMLElement;
    expect(recent.classList.contains("internal-link")).toBe(true);
    expect(recent.getAttribute("data-href")).toMatch(/^palee\/sessions\/S-\d{8}T\d{6}-[0-9a-f]{4}$/);
    const topic = Array.from(view.contentEl.querySelectorAll("table a")).find((a) => a.textContent === "Go notes");
    expect(topic?.classList.contains("internal-link")).toBe(true);
    expect(topic?.getAttribute("data-href")).toBe("Go notes");
    recent.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    expect(hovers).toHaveLength(1);
    const hover = hovers[0] as Record<string, unknown>;
    expect(hover.event).toBeInstanceOf(MouseEvent);
    expect(hover.hoverParent === view && hover.targetEl === recent).toBe(true);
    expect([hover.source, hover.linktext, hover.sourcePath]).toEqual([
      HISTORY_VIEW.type,
      recent.getAttribute("data-href"),
      "palee/index.md",
    ]);
    const sources = (p.plugin as unknown as { hoverLinkSources__: Map<string, unknown> }).hoverLinkSources__;
    expect(sources.get(HISTORY_VIEW.type)).toEqual({ display: "PALEE Sessions", defaultMod: true });
  });

  it("open in the current tab on a click and in a new tab on Mod-click or a middle click", async () => {
    const p = await loadPlugin(harness({ files: files() }), { device: "laptop" });
    const view = await openView(p);
    const workspace = p.h.app.workspace;
    const open = jest.spyOn(workspace, "openLinkText");
    const recent = view.contentEl.querySelector(".palee-history-recent a") as HTMLElement;
    const linktext = recent.getAttribute("data-href") ?? "";
    recent.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    recent.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, ctrlKey: true, metaKey: true }));
    recent.dispatchEvent(new MouseEvent("auxclick", { bubbles: true, cancelable: true, button: 1 }));
    await settle();
    expect(open.mock.calls.map((c) => [c[0], c[1], c[2]])).toEqual([
      [linktext, "palee/index.md", false],
      [linktext, "palee/index.md", "tab"],
      [linktext, "palee/index.md", "tab"],
    ]);
    expect(workspace.getActiveFile()?.path).toBe(`${linktext}.md`);
  });
});
