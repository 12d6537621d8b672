/**
 * The idle status bar's due count (contract §5 version 4): a count asked for while one is running is done once
 * more afterwards, so a start quickly followed by its end is never left showing the count from before the end.
 */
import type { FlowContext } from "../../src/plugin/flows/context";
import { dueCounter } from "../../src/plugin/flows/review-queue";

function stubContext(next: () => Promise<unknown>): FlowContext {
  return {
    app: {
      workspace: { getActiveFile: () => null },
      vault: { getMarkdownFiles: () => [], getFileByPath: () => null },
      metadataCache: { getFileCache: () => null },
    },
    controller: { layout: { folder: "palee" }, next, open: null, onChange: () => () => undefined },
    topicNotes: { notes: () => ({ notes: [], invalid: [], legacy: [] }), names: () => (topicId: string) => topicId },
    disposed: false,
  } as unknown as FlowContext;
}

const queueOf = (due: number) => ({
  queue: Array.from({ length: due }, (_, i) => ({ topicId: `T-${i}`, group: "due" })),
});

describe("the due count", () => {
  it("counts once more when asked while a count runs, and reports the later number", async () => {
    const answers: Array<(value: unknown) => void> = [];
    const next = jest.fn(() => new Promise((resolve) => answers.push(resolve)));
    const changed = jest.fn();
    const counter = dueCounter(stubContext(next), changed);
    counter.refresh(); // the start
    counter.refresh(); // its end, while the first count runs
    expect(next).toHaveBeenCalledTimes(1);
    answers[0](queueOf(2));
    await new Promise((r) => setTimeout(r, 0));
    expect(counter.count()).toBe(2);
    expect(next).toHaveBeenCalledTimes(2);
    answers[1](queueOf(1));
    await new Promise((r) => setTimeout(r, 0));
    expect([counter.count(), changed.mock.calls.length, next.mock.calls.length]).toEqual([1, 2, 2]);
  });

  it("counts nothing when the open session is learnt before the first count (layout ready), then follows", async () => {
    const next = jest.fn(() => Promise.resolve(queueOf(1)));
    const listeners: Array<() => void> = [];
    const ctx = stubContext(next);
    const controller = ctx.controller as unknown as { open: unknown; onChange: (l: () => void) => () => void };
    controller.onChange = (listener) => (listeners.push(listener), () => undefined);
    const counter = dueCounter(ctx, jest.fn());
    counter.follow();
    controller.open = { session: { draftId: "DRAFT-S-00000001" } }; // known at layout ready
    listeners.forEach((l) => l());
    await new Promise((r) => setTimeout(r, 0));
    expect(next).not.toHaveBeenCalled(); // the queue's full scan waits for the deferred one
    counter.refresh(); // after the full scan start-up defers
    await new Promise((r) => setTimeout(r, 0));
    controller.open = null; // the session ends
    listeners.forEach((l) => l());
    await new Promise((r) => setTimeout(r, 0));
    expect(next).toHaveBeenCalledTimes(2);
    expect(counter.count()).toBe(1);
  });
});
