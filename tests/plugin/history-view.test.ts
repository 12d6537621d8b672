/**
 * The study history view and the insight commands (contract §5, version 2) in the in-memory Obsidian: what the
 * learner sees, that it reads confirmed sessions through the metadata cache, that it follows session changes,
 * and that absurd records never break it.
 */
import { renderSessionsBase } from "../../src/core/formats/bases";
import { formatTimestamp, formatUtcCompact } from "../../src/core/time";
import { HISTORY_VIEW, renderHistory, historyModel } from "../../src/plugin/ui/history-view";
import { confirmedText } from "../support/builders";
import type { ObsidianHarness } from "./support/obsidian-harness";
import { openHistoryView } from "./support/history-view";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  MINUTE,
  T0,
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  settle,
  submitEnd,
} from "./support/plugin-harness";
import { S, startOn, textAt } from "./support/session-files";

installPluginTestEnvironment();

const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const stamp = (ms: number): string => formatTimestamp(ms, 0);

let serial = 0;
/** A confirmed session file started `daysAgo` days before T0 (12:00 UTC, a Friday), at 09:00. */
function session(
  daysAgo: number,
  minutes: number,
  fields: Record<string, string | number | null> = {},
  summary?: string,
): [string, string] {
  const start = T0 - daysAgo * DAY - 3 * HOUR;
  const id = `S-${formatUtcCompact(start)}-${(++serial).toString(16).padStart(4, "0")}`;
  const text = confirmedText(
    {
      session_id: id,
      topic_id: "T-rust",
      started_at: stamp(start),
      ended_at: stamp(start + minutes * MINUTE),
      duration_minutes: minutes,
      ...fields,
    },
    summary ? { summary } : {},
  );
  return [S(id), text];
}

function history(): Record<string, string> {
  return Object.fromEntries([
    session(0, 30), // today
    session(1, 45, { topic_id: "T-go", topic_note: "[[Go notes]]" }),
    session(2, 20),
    session(9, 60), // last week
    session(40, 15, { topic_id: "T-<script>alert(1)</script>" }, '=HYPERLINK("x")'),
    ["Go notes.md", "---\npalee_id: T-go\n---\n# Go\n"],
  ]);
}

async function loaded(files: Record<string, string>): Promise<{ h: ObsidianHarness; p: LoadedPlugin }> {
  const h = harness({ files });
  const p = await loadPlugin(h, { device: "laptop" });
  return { h, p };
}

const waitForRefresh = async (): Promise<void> => {
  await new Promise((resolve) => setTimeout(resolve, 250));
  await settle();
};

describe("study history view", () => {
  it("opens in the right sidebar from the open-history command, once", async () => {
    const { h, p } = await loaded(history());
    expect(await p.run("open-history")).toBe(true);
    expect(await p.run("open-history")).toBe(true);
    expect(h.app.workspace.getLeavesOfType(HISTORY_VIEW.type)).toHaveLength(1);
  });

  it("shows today, this week against last week, the streak, charts, topics and recent sessions", async () => {
    const { p } = await loaded(history());
    const view = await openHistoryView(p);
    const el = view.contentEl;
    const text = el.textContent ?? "";
    expect(text).toContain("No session is open.");
    expect(text).toMatch(/Today30 min1 session/);
    // Monday 10 Aug to Friday 14 Aug: 30 + 45 + 20; the week before: 60.
    expect(text).toMatch(/This week1 h 35 min\+35 min on last week \(1 h\)/);
    // Version 4: weeks met and days studied replace the daily streak (weeks of 3 and 10 August met).
    expect(text).toMatch(/Week streak2 weekslongest 2 weeks/);
    expect(text).toMatch(/Studied4 of 30 daysin the last 30 days/);
    const charts = el.querySelectorAll("svg.palee-history-svg");
    expect(charts).toHaveLength(2);
    expect(charts[0].querySelectorAll("rect")).toHaveLength(14);
    expect(charts[1].querySelectorAll("rect")).toHaveLength(12);
    expect(charts[0].getAttribute("role")).toBe("img");
    expect(charts[0].getAttribute("aria-label")).toMatch(
      /^Minutes per day, last 14 days: 2 h 35 min in total, most on 2026-08-05 \(1 h\)\.$/,
    );
    const today = charts[0].querySelector('rect[data-key="2026-08-14"]');
    const yesterday = charts[0].querySelector('rect[data-key="2026-08-13"]');
    expect(Number(yesterday?.getAttribute("height"))).toBeGreaterThan(Number(today?.getAttribute("height")));
    expect(today?.querySelector("title")?.textContent).toBe("2026-08-14: 30 min, 1 session");
    const rows = Array.from(el.querySelectorAll("table.palee-history-topics tr")).map((r) => r.textContent);
    expect(rows).toEqual([
      "TopicTotalSessionsLast studied",
      "T-rust1 h 50 min32026-08-14",
      "Go notes45 min12026-08-13", // the topic note's name (contract §5 version 4, topics by name)
      "T-<script>alert(1)</script>15 min12026-07-05",
    ]);
    expect(el.querySelectorAll(".palee-history-recent li")).toHaveLength(5);
    expect(el.querySelector("script")).toBeNull();
  });

  it("links a topic to its topic note and a recent session to its note", async () => {
    const { h, p } = await loaded(history());
    const view = await openHistoryView(p);
    const goLink = Array.from(view.contentEl.querySelectorAll("table a")).find(
      (a) => a.textContent === "Go notes",
    ) as HTMLElement;
    goLink.click();
    await settle();
    expect(h.app.workspace.getActiveFile()?.path).toBe("Go notes.md");
    const first = view.contentEl.querySelector(".palee-history-recent a") as HTMLElement;
    first.click();
    await settle();
    expect(h.app.workspace.getActiveFile()?.path).toMatch(/^palee\/sessions\/S-20260814T090000-/);
  });

  it("reads no confirmed note in full: the metadata cache serves them", async () => {
    const { h, p } = await loaded(history());
    h.resetLogs();
    await openHistoryView(p);
    expect(h.reads.paths().filter((path) => /\/S-[^/]+\.md$/.test(path))).toEqual([]);
  });

  it("shows the open session with a live timer and an End button, and follows its end", async () => {
    const { h, p } = await loaded(history());
    const view = await openHistoryView(p);
    await startOn(p, "T-rust");
    await waitForRefresh();
    expect(view.contentEl.querySelector(".palee-history-open-topic")?.textContent).toBe("T-rust");
    jest.advanceTimersByTime(65_000);
    expect(view.contentEl.querySelector(".palee-history-timer")?.textContent).toBe("0:01:05");
    h.catchUpCache();
    const end = Array.from(view.contentEl.querySelectorAll("button")).find(
      (b) => b.textContent === "End",
    ) as HTMLButtonElement;
    end.click();
    await settle();
    // From here: what the end and the refresh after it read (the dialog's carried next action is read before).
    h.resetLogs();
    // With a next action, the end's working memory needs no older note of the topic (contract §2 hot.md).
    await submitEnd("Lifetimes", "Chapter 10");
    h.catchUpCache();
    await waitForRefresh();
    expect(view.contentEl.textContent).toContain("No session is open.");
    expect(view.contentEl.textContent).toMatch(/Today31 min2 sessions/);
    // Refreshing after one end reads the new note at most (it is not in the cache yet), not the folder.
    expect(h.reads.paths().filter((path) => /\/S-[^/]+\.md$/.test(path)).length).toBeLessThanOrEqual(1);
  });

  it("shows absurd records as text, clamped or left out, and lists them to fix", async () => {
    const files = Object.fromEntries([
      session(1, 45, { duration_minutes: 99_999_999 }),
      session(2, 30, { ended_at: stamp(T0 - 5 * DAY) }),
      session(3, 30, { duration_minutes: -5 }),
      [
        "palee/sessions/S-20990101T000000-0abc.md",
        confirmedText({
          session_id: "S-20990101T000000-0abc",
          started_at: "2099-01-01T00:00:00+00:00",
          ended_at: "2099-01-01T01:00:00+00:00",
        }),
      ],
      [
        "palee/sessions/S-19700101T000000-0abd.md",
        confirmedText({
          session_id: "S-19700101T000000-0abd",
          started_at: "1970-01-01T00:00:00+00:00",
          ended_at: "1970-01-01T01:00:00+00:00",
        }),
      ],
    ]);
    const { p } = await loaded(files);
    const view = await openHistoryView(p);
    const heights = Array.from(view.contentEl.querySelectorAll("rect")).map((r) => Number(r.getAttribute("height")));
    expect(heights.length).toBeGreaterThan(0); // the charts are drawn, so the check below sees bars
    expect(heights.every((v) => Number.isFinite(v) && v >= 0 && v <= 110)).toBe(true);
    const problems = Array.from(view.contentEl.querySelectorAll(".palee-history-problems li")).map(
      (li) => li.textContent ?? "",
    );
    expect(problems).toHaveLength(5);
    expect(problems.join("\n")).toMatch(/duration_minutes is not a whole number/);
    expect(problems.join("\n")).toMatch(
      /duration_minutes 99999999 is longer than started_at→ended_at \(45 min\): counted 45 min/,
    );
    expect(problems.join("\n")).toMatch(/is in the future: not counted/);
    expect(problems.join("\n")).toMatch(/is before 2000: not counted/);
    expect(problems.join("\n")).toMatch(
      /ended_at 2026-08-09T12:00:00\+00:00 is before started_at 2026-08-12T09:00:00\+00:00: counted 30 min/,
    );
    expect(view.contentEl.textContent).toMatch(/Studied2 of 30 days/);
    // Listed where the learner can fix them: each names its note and opens it.
    const link = view.contentEl.querySelector(".palee-history-problems a[href]") as HTMLElement;
    link.click();
    await settle();
    expect(p.h.app.workspace.getActiveFile()?.path).toBe(`palee/sessions/${link.textContent ?? ""}`);
  });

  it("clamps a session longer than a day to one day, so one record cannot flatten the chart", async () => {
    const files = Object.fromEntries([session(1, 45), session(3, 30 * 24 * 60, { topic_id: "T-week-long" })]);
    const { p } = await loaded(files);
    const view = await openHistoryView(p);
    const problems = Array.from(view.contentEl.querySelectorAll(".palee-history-problems li")).map(
      (li) => li.textContent ?? "",
    );
    expect(problems).toEqual([expect.stringMatching(/: 43200 min is longer than a day: counted 1440 min$/)]);
    const bars = Array.from(view.contentEl.querySelectorAll("svg.palee-history-svg")[0].querySelectorAll("rect"));
    const height = (date: string): number =>
      Number(bars.find((r) => r.getAttribute("data-key") === date)?.getAttribute("height"));
    expect(height("2026-08-13") / height("2026-08-11")).toBeCloseTo(45 / 1440, 1);
    expect(height("2026-08-13")).toBeGreaterThan(0);
  });

  it("renders from data alone (for scripts and screenshots)", () => {
    const el = createDiv();
    const model = historyModel({
      confirmed: [],
      skipped: [],
      now: T0,
      offsetAt: () => 0,
      open: null,
      showSeconds: true,
    });
    renderHistory(el, model, {
      openPath: () => undefined,
      openLink: () => undefined,
      end: () => undefined,
      pause: () => undefined,
      continueSession: () => undefined,
      recover: () => undefined,
    });
    expect(el.textContent).toContain("No sessions yet");
    expect(el.querySelectorAll("rect")).toHaveLength(26);
  });
});

describe("export-sessions and create-sessions-base", () => {
  it("exports a CSV to <folder>/exports, a new name each time, and says where", async () => {
    const { h, p } = await loaded(history());
    await p.run("export-sessions");
    expect(lastNotice()).toMatch(/^Exported 5 session\(s\) to palee\/exports\/sessions-2026-08-14\.csv\. /);
    const csv = textAt(h, "palee/exports/sessions-2026-08-14.csv");
    expect(csv.split("\r\n")[0]).toBe(
      "session_id,topic_id,started_at,ended_at,duration_minutes,hours,break_minutes,outcome,summary,path",
    );
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    await p.run("export-sessions");
    expect(lastNotice()).toMatch(/to palee\/exports\/sessions-2026-08-14-2\.csv\. /);
    expect(textAt(h, "palee/exports/sessions-2026-08-14.csv")).toBe(csv);
  });

  it("writes sessions.base once and opens it on later runs, never rewriting it", async () => {
    const { h, p } = await loaded(history());
    await p.run("create-sessions-base");
    expect(textAt(h, "palee/sessions.base")).toBe(renderSessionsBase("palee/sessions"));
    expect(lastNotice()).toMatch(/^Created palee\/sessions\.base/);
    h.write("palee/sessions.base", "# my edits\n");
    await p.run("create-sessions-base");
    expect(textAt(h, "palee/sessions.base")).toBe("# my edits\n");
    expect(lastNotice()).toBe("Opened palee/sessions.base.");
    expect(h.app.workspace.getActiveFile()?.path).toBe("palee/sessions.base");
  });
});
