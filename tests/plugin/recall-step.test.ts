/**
 * The end dialog's recall step (contract §5 version 4, acceptance example 16): the carried next action with a
 * Done box, "What do you remember?" and four rating buttons, all optional: confirming with none is one
 * keystroke and writes no recall_rating; the setting "Ask what I remember when ending" hides the recall part.
 */
import type { ObsidianHarness } from "./support/obsidian-harness";
import {
  MINUTE,
  T0,
  buttonByText,
  click,
  endModal,
  harness,
  installPluginTestEnvironment,
  loadPlugin,
  settle,
  submitEnd,
  type,
} from "./support/plugin-harness";
import type { LoadedPlugin } from "./support/plugin-harness";
import { bodyAt, confirmedPaths, fieldsAt, startOn } from "./support/session-files";

installPluginTestEnvironment();

/** A session started and studied for 30 minutes, its end dialog open: the dialog's content. */
async function endDialogAfter30(p: LoadedPlugin): Promise<HTMLElement> {
  await startOn(p);
  jest.setSystemTime(T0 + 30 * MINUTE);
  await p.run("end-session");
  return endModal().contentEl;
}

async function sessionEnded(p: LoadedPlugin, next: string | null): Promise<void> {
  await endDialogAfter30(p);
  await submitEnd("Borrowing", next ?? "");
}

function newest(h: ObsidianHarness): string {
  return confirmedPaths(h).sort().at(-1) as string;
}

describe("the end dialog's recall step", () => {
  it("ends with one keystroke (Enter in Next action) and writes no recall_rating when none is given", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const next = (await endDialogAfter30(p)).querySelector<HTMLInputElement>("input.palee-next-input");
    next?.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    await settle();
    const fields = fieldsAt(h, newest(h));
    expect(["recall_rating" in fields, "next_done" in fields]).toEqual([false, false]);
    expect(bodyAt(h, newest(h))).not.toContain("## Recall");
  });

  it("shows four rating buttons with their meanings; a chosen rating and the recall are written", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const el = await endDialogAfter30(p);
    const buttons = Array.from(el.querySelectorAll<HTMLButtonElement>("button.palee-rating-button"));
    expect(buttons.map((b) => [b.textContent, b.title])).toEqual([
      ["Again", "could not recall it"],
      ["Hard", "recalled with gaps"],
      ["Good", "recalled the main points"],
      ["Easy", "recalled it all, without effort"],
    ]);
    click(buttonByText(el, "Easy"));
    click(buttonByText(el, "Hard"));
    expect(buttonByText(el, "Hard").getAttribute("aria-pressed")).toBe("true");
    expect(buttonByText(el, "Easy").getAttribute("aria-pressed")).toBe("false");
    type(el.querySelector("textarea.palee-recall-input"), "borrow rules");
    await submitEnd("Borrowing", "");
    expect(fieldsAt(h, newest(h)).recall_rating).toBe(2);
    expect(bodyAt(h, newest(h))).toContain("## Recall\n\nborrow rules\n");
  });

  it("clicking the chosen rating again clears it", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    const el = await endDialogAfter30(p);
    click(buttonByText(el, "Good"));
    click(buttonByText(el, "Good"));
    await submitEnd("Borrowing", "");
    expect("recall_rating" in fieldsAt(h, newest(h))).toBe(false);
  });

  it("shows the carried next action with a Done box; checked, the note records next_done", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    await sessionEnded(p, "Read chapter 5");
    jest.setSystemTime(T0 + 90 * MINUTE);
    await startOn(p);
    jest.setSystemTime(T0 + 120 * MINUTE);
    await p.run("end-session");
    const el = endModal().contentEl;
    const carried = el.querySelector(".palee-carried-next");
    expect(carried?.textContent).toContain("Read chapter 5");
    const box = el.querySelector<HTMLInputElement>("input.palee-done-box");
    click(box);
    await submitEnd("Lifetimes", "");
    expect(fieldsAt(h, newest(h)).next_done).toBe(true);
    expect(h.adapter.readSync__("palee/hot.md")).not.toContain("Read chapter 5");
  });

  it("without a carried next action there is no Done box", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop" });
    expect((await endDialogAfter30(p)).querySelector(".palee-carried-next")).toBeNull();
  });

  it("the setting turns the recall part off", async () => {
    const h = harness();
    const p = await loadPlugin(h, { device: "laptop", data: { askRecall: false } });
    const el = await endDialogAfter30(p);
    expect([el.querySelector(".palee-rating-button"), el.querySelector(".palee-recall-input")]).toEqual([null, null]);
  });
});
