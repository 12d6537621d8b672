/**
 * What to study next in the plugin (contract §5 version 4): the command `study-next` (a suggester with reasons;
 * choosing starts a session), the app's command line `palee-sessions:next` and end's rating=, the link
 * action=next, the history view's "Next up" with a start button, and the idle status bar's due count.
 */
import { HISTORY_VIEW } from "../../src/plugin/ui/history-view";
import { StudyNextModal } from "../../src/plugin/ui/study-next-modal";
import type { NextChoice } from "../../src/plugin/ui/study-next-modal";
import { studyNote } from "../support/review-vault";
import { followLink, runCli } from "./support/doors";
import { openHistoryView } from "./support/history-view";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  click,
  harness,
  installPluginTestEnvironment,
  loadPlugin,
  modals,
  runDeferredChecks,
  settle,
  suggestions,
} from "./support/plugin-harness";
import { choiceLabel } from "../../src/plugin/ui/topic-picker";
import { HOT, confirmedPaths, fieldsAt, statusText } from "./support/session-files";

jest.mock("obsidian", () => {
  const actual = jest.requireActual<Record<string, unknown>>("obsidian");
  return { ...actual, requireApiVersion: () => true };
});

installPluginTestEnvironment();

const RUST_NOTE = "notes/Rust ownership.md";

/** As of T0 (2026-08-14 12:00 UTC): T-a due today (good days 3, 4, 7 Aug); T-b studied this morning, next 15 Aug. */
function files(): Record<string, string> {
  const notes = [
    ...["2026-08-03", "2026-08-04", "2026-08-07"].map((d) => studyNote({ topic: "T-a", at: `${d}T10:00` })),
    studyNote({ topic: "T-b", at: "2026-08-14T09:00", next: "Left joins" }),
  ];
  return {
    [RUST_NOTE]: "---\npalee_id: T-a\n---\nMoves and borrows.\n",
    ...Object.fromEntries(notes.map((n) => [n.path, n.text])),
  };
}

async function loaded(): Promise<LoadedPlugin> {
  const p = await loadPlugin(harness({ files: files() }), { device: "laptop" });
  await p.layoutReady();
  await settle();
  return p;
}

function suggester(): StudyNextModal {
  const found = modals().filter((m) => (m as unknown) instanceof StudyNextModal);
  if (found.length !== 1) throw new Error(`${found.length} study-next suggesters are open`);
  return found[0] as unknown as StudyNextModal;
}

describe("study-next", () => {
  it("lists the queue with its reasons, names topic notes, and starts a session on the chosen topic", async () => {
    const p = await loaded();
    await p.run("study-next");
    const choices: NextChoice[] = suggester().getSuggestions("");
    expect(choices).toEqual([
      { topicId: "T-a", name: "Rust ownership", group: "due", reasons: "due today (7-day gap)" },
      { topicId: "T-b", name: "T-b", group: "continue", reasons: "next action: Left joins" },
    ]);
    suggester().onChooseSuggestion(choices[0]);
    await settle();
    expect(fieldsAt(p.h, HOT).active_topic).toBe("T-a");
    expect(typeof fieldsAt(p.h, HOT).open_draft).toBe("string");
  });

  it("answers palee-sessions:next in text, and end's rating= is checked before anything is written", async () => {
    const p = await loaded();
    expect(await runCli(p, "palee-sessions:next")).toBe(
      "1 due. Study next: Rust ownership.\n- Rust ownership (due): due today (7-day gap)\n" +
        "- T-b (continue): next action: Left joins",
    );
    await runCli(p, "palee-sessions:start", { topic: "T-b" });
    const before = confirmedPaths(p.h).length;
    expect(await runCli(p, "palee-sessions:end", { rating: "7" })).toBe(
      'A rating is 1-4 or again, hard, good, easy (got "7")',
    );
    expect(confirmedPaths(p.h)).toHaveLength(before);
    await runCli(p, "palee-sessions:end", { rating: "easy", recall: "joins" });
    const newest = confirmedPaths(p.h).sort().at(-1) as string;
    expect(fieldsAt(p.h, newest).recall_rating).toBe(4);
  });

  it('says "Start session · 1 due" when idle, counted after the full scan start-up defers', async () => {
    const p = await loaded();
    await settle();
    // At layout ready the count waits: its queue would do the full scan the deferred check does anyway.
    expect(statusText(p)).toBe("Start session");
    await runDeferredChecks();
    expect(statusText(p)).toBe("Start session · 1 due");
    // Studying the due topic takes it off the count once the session ends.
    await runCli(p, "palee-sessions:start", { topic: "T-a" });
    jest.setSystemTime(Date.UTC(2026, 7, 14, 12, 10)); // within the grace period: no silence to cut
    expect(await runCli(p, "palee-sessions:end", {})).toBe("Session on Rust ownership saved (10 min).");
    await settle();
    expect(statusText(p)).toBe("Start session");
  });

  it("opens the history view for action=next", async () => {
    const p = await loaded();
    await followLink(p, "obsidian://palee-sessions?action=next");
    expect(p.h.app.workspace.getLeavesOfType(HISTORY_VIEW.type)).toHaveLength(1);
  });
});

describe("the topic picker", () => {
  it('lists due topics first, marked "due", and the others "in N days"', async () => {
    const p = await loaded();
    await p.ribbon();
    const labels = suggestions("").map((c) => ("topicId" in c ? `${c.topicId}: ${choiceLabel(c).note}` : c.kind));
    expect(labels).toEqual(["T-a: T-a · topic note · due", "T-b: From your past sessions · in 1 day"]);
  });
});

describe("the history view's Next up", () => {
  it("shows the first entries with their reasons and a start button that starts a session", async () => {
    const p = await loaded();
    const view = await openHistoryView(p);
    const items = Array.from(view.contentEl.querySelectorAll<HTMLElement>(".palee-next-up li"));
    expect(items.map((li) => li.dataset.topic)).toEqual(["T-a", "T-b"]);
    expect(items[0].textContent).toContain("Rust ownership · due");
    expect(items[0].querySelector(".palee-next-up-reasons")?.textContent).toBe("due today (7-day gap)");
    click(items[0].querySelector("button.palee-next-up-start"));
    await settle();
    expect(fieldsAt(p.h, HOT).active_topic).toBe("T-a");
  });
});
