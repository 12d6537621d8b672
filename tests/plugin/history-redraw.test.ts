/**
 * The history view's redraw after a change is derived from the last one (issues 37 and 38, "Speed"): the stats
 * taken forward by the new note, the queue scheduling only the ended topic, the year's cells updated in place.
 * The oracle: a view opened afresh on the same vault draws exactly the same DOM, after an end, after a note is
 * deleted, after one is edited by hand and after an older one arrives by sync. And a whole year studied stays
 * within the year's 450 nodes, with its weekday labels outside the part that scrolls.
 */
import type { FlowContext } from "../../src/plugin/flows/context";
import { endWith } from "../../src/plugin/flows/end";
import { headingsProbe, queueNow } from "../../src/plugin/flows/review-queue";
import { startSession } from "../../src/plugin/flows/start";
import type { HistoryView } from "../../src/plugin/ui/history-view";
import { studyNote } from "../support/review-vault";
import { openHistoryView } from "./support/history-view";
import type { LoadedPlugin } from "./support/plugin-harness";
import { MINUTE, T0, harness, installPluginTestEnvironment, loadPlugin, settle } from "./support/plugin-harness";

installPluginTestEnvironment();

const DAY = 24 * 60 * MINUTE;
const PLAN = [
  "---",
  "palee_schema: 1",
  "type: study_plan",
  "goals:",
  "  - from: 2025-01-06",
  "    minutes_per_week: 210",
  "topics:",
  "  T-b:",
  "    sessions_per_week: 3",
  "rest_days:",
  "  - sun",
  "---",
  "My plan.",
  "",
].join("\n");

/** A session on every day of the last `days` days before T0 (2026-08-14), on three topics, some rated. */
function vault(days: number): Record<string, string> {
  const files: Record<string, string> = { "palee/plan.md": PLAN };
  for (let i = 1; i <= days; i++) {
    const at = new Date(T0 - i * DAY).toISOString().slice(0, 10);
    const note = studyNote({
      topic: ["T-a", "T-b", "T-c"][i % 3],
      at: `${at}T08:00`,
      minutes: 10 + ((i * 7) % 60),
      rating: i % 5 === 0 ? 2 : undefined,
      next: i % 4 === 0 ? "Read on" : undefined,
    });
    files[note.path] = note.text;
  }
  return files;
}

/** The queue as the plugin reads it after each end (its memos), against the queue worked out without them. */
async function expectQueueAsWithoutMemos(flows: FlowContext): Promise<void> {
  const withMemos = await queueNow(flows, true, false);
  const without = await flows.controller.next({ hasNextAction: headingsProbe(flows) });
  expect(withMemos.result).toEqual(without);
}

/** The view's DOM after a redraw, against the DOM of a view opened afresh now (and the queue, as above). */
async function redrawnAndFresh(p: LoadedPlugin, view: HistoryView): Promise<[string, string]> {
  p.h.catchUpCache();
  await expectQueueAsWithoutMemos((p.plugin as unknown as { flows: FlowContext }).flows);
  await view.refresh();
  const fresh = await openHistoryView(p);
  const both: [string, string] = [view.contentEl.innerHTML, fresh.contentEl.innerHTML];
  await fresh.onClose();
  return both;
}

describe("the history view's redraw", () => {
  it("draws what a fresh view draws, after an end, a deleted note, an edited one and an older one synced", async () => {
    const p = await loadPlugin(harness({ files: vault(40) }), { device: "laptop" });
    const flows = (p.plugin as unknown as { flows: FlowContext }).flows;
    const view = await openHistoryView(p);
    const yearCells = (): number => view.contentEl.querySelectorAll(".palee-year-svg rect").length;
    expect(yearCells()).toBe(41); // 40 days studied, and today (pending)
    const rect = view.contentEl.querySelector(".palee-year-svg rect");

    await startSession(flows, { topic: "T-b" });
    jest.setSystemTime(T0 + 50 * MINUTE);
    await endWith(flows, { summary: "Joins.", nextAction: "Left joins", endAt: { kind: "now" }, rating: 4 });
    await settle();
    let [redrawn, fresh] = await redrawnAndFresh(p, view);
    expect(redrawn).toBe(fresh);
    expect(view.contentEl.querySelector(".palee-year-svg rect")).toBe(rect); // updated in place, not drawn again
    expect(view.contentEl.querySelector('rect[data-title^="Fri 14 Aug"]')?.getAttribute("data-title")).toBe(
      "Fri 14 Aug: 50 min, 1 session",
    );
    expect(view.contentEl.querySelector(".palee-next-up")?.textContent).toContain("T-b");

    const notes = p.h.app.vault.getMarkdownFiles().filter((f) => /\/S-[^/]+\.md$/.test(f.path));
    const oldest = notes.sort((a, b) => (a.path < b.path ? -1 : 1))[0];
    await p.h.app.fileManager.trashFile(oldest); // the learner deletes a note
    await settle();
    [redrawn, fresh] = await redrawnAndFresh(p, view);
    expect(redrawn).toBe(fresh);
    expect(yearCells()).toBe(40); // the first day is now before the first session: blank

    const edited = notes[5];
    const text = await p.h.app.vault.read(edited);
    await p.h.app.vault.modify(edited, text.replace(/duration_minutes: \d+/, "duration_minutes: 200"));
    await settle();
    [redrawn, fresh] = await redrawnAndFresh(p, view);
    expect(redrawn).toBe(fresh);
    expect(view.contentEl.querySelector(".palee-year-level-4")).not.toBeNull();

    // A note synced from another device, older than every other: the days before it get cells, in day order.
    const synced = studyNote({ topic: "T-c", at: new Date(T0 - 45 * DAY).toISOString().slice(0, 10) + "T08:00" });
    await p.h.app.vault.create(synced.path, synced.text);
    await settle();
    [redrawn, fresh] = await redrawnAndFresh(p, view);
    expect(redrawn).toBe(fresh);
    expect(yearCells()).toBe(46);
    await view.onClose();
  });

  it("draws a year of study within 450 nodes, one cell a day, weekday labels beside the scrolling part", async () => {
    const p = await loadPlugin(harness({ files: vault(400) }), { device: "laptop" });
    const el = (await openHistoryView(p)).contentEl;
    const year = el.querySelector(".palee-year") as HTMLElement;
    const drawings = Array.from(year.querySelectorAll("svg"));
    const nodes = drawings.reduce((n, svg) => n + 1 + svg.querySelectorAll("*").length, 0);
    // 53 weeks up to Friday 14 August 2026: the two days after it are not drawn; today has no session yet.
    expect(year.querySelectorAll("rect")).toHaveLength(53 * 7 - 2);
    expect(nodes).toBeLessThanOrEqual(450);
    const scroll = year.querySelector(".palee-year-scroll") as HTMLElement;
    const weekdays = year.querySelector("svg.palee-year-weekdays") as SVGElement;
    expect(Array.from(weekdays.querySelectorAll("text")).map((t) => t.textContent)).toEqual(["Mon", "Wed", "Fri"]);
    expect(scroll.contains(weekdays)).toBe(false);
    expect(scroll.querySelectorAll("text").length).toBeGreaterThanOrEqual(12); // the month labels scroll along
  });

  it("names topics in Next up from notes looked up again only after a change outside the session folder", async () => {
    const files = { ...vault(10), "notes/Joins.md": "---\npalee_id: T-b\n---\nJoins.\n" };
    const p = await loadPlugin(harness({ files }), { device: "laptop" });
    const flows = (p.plugin as unknown as { flows: FlowContext }).flows;
    const view = await openHistoryView(p);
    const names = (): string[] =>
      Array.from(view.contentEl.querySelectorAll(".palee-next-up-topic")).map((e) => e.textContent ?? "");
    expect(names()).toContain("Joins");

    const lookups = jest.spyOn(p.h.app.vault, "getMarkdownFiles");
    await startSession(flows, { topic: "T-a" });
    jest.setSystemTime(T0 + 30 * MINUTE);
    await endWith(flows, { summary: "S.", nextAction: null, endAt: { kind: "now" } });
    await settle();
    lookups.mockClear();
    p.h.catchUpCache();
    await view.refresh();
    expect(lookups).not.toHaveBeenCalled(); // an end changes no topic note

    const note = p.h.app.vault.getFileByPath("notes/Joins.md");
    if (!note) throw new Error("no topic note");
    await p.h.app.fileManager.renameFile(note, "notes/SQL joins.md");
    await settle();
    await view.refresh();
    expect(names()).toContain("SQL joins");
    expect(names()).not.toContain("Joins");
    await p.h.app.vault.create("notes/Rust.md", "---\npalee_id: T-c\n---\n");
    p.h.catchUpCache();
    await settle();
    await view.refresh();
    expect(names()).toContain("Rust");
    lookups.mockRestore();
    await view.onClose();
  });
});
