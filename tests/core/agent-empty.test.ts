/**
 * An agent's empty session (contract §5 version 4, agents): a session an agent opened that ends with 0 minutes
 * studied and nothing recorded is discarded (its draft to the trash, no note, no streak day), whoever ends it.
 * The learner's own 0-minute end, and an agent's end with anything recorded, are saved as before.
 */
import { HOT, S, confirmedPaths, draftPaths, fields } from "../support/inspect";
import { harness } from "../support/fakes";

const TOPIC = "T-rust";
const AGENT = "claude-code:5f1c-aa";

async function opened(agent: string | null) {
  const h = harness();
  const started = await h.core.start({ topic: TOPIC, agent });
  if (started.status !== "started") throw new Error(started.status);
  return { ...h, draftId: started.draftId };
}

describe("an agent's empty session", () => {
  it("is discarded when the agent ends it at once: draft trashed, no note, hot.md closed", async () => {
    const { core, store, draftId } = await opened(AGENT);
    const answer = await core.endOrDiscard({ agent: AGENT, endAt: { kind: "last" } });
    expect(answer.discardedEmpty).toBe(draftId);
    expect(confirmedPaths(store)).toEqual([]);
    expect(draftPaths(store)).toEqual([]);
    expect(store.trashed.map((t) => t.path)).toEqual([S(draftId)]);
    expect(fields(store, HOT).open_draft ?? null).toBeNull();
    expect((await core.status()).open).toBeNull();
    expect((await core.list()).confirmed).toEqual([]);
  });

  it("is discarded whoever ends it (the learner's plain end of the agent's session)", async () => {
    const { core, store, clock, draftId } = await opened(AGENT);
    clock.advance(0.2);
    const answer = await core.endOrDiscard({});
    expect(answer.discardedEmpty).toBe(draftId);
    expect(confirmedPaths(store)).toEqual([]);
  });

  it.each([
    ["a summary", { summary: "- borrowing" }],
    ["a next action", { nextAction: "ex 4.1" }],
    ["a last note", { note: "a note" }],
    ["a recall", { recall: "ownership moves" }],
    ["a rating", { rating: 3 }],
    ["done", { done: true }],
  ])("is saved when the end records %s", async (_what, extra) => {
    const { core, store } = await opened(AGENT);
    const answer = await core.endOrDiscard({ agent: AGENT, ...extra });
    expect(answer.discardedEmpty).toBeUndefined();
    expect(confirmedPaths(store)).toHaveLength(1);
  });

  it("is saved when its draft carries notes", async () => {
    const { core, store } = await opened(AGENT);
    await core.checkpoint({ notes: "what was asked" });
    const answer = await core.endOrDiscard({ agent: AGENT, endAt: { kind: "now" } });
    expect(answer.discardedEmpty).toBeUndefined();
    expect(confirmedPaths(store)).toHaveLength(1);
  });

  it("is saved when a minute was studied", async () => {
    const { core, store, clock } = await opened(AGENT);
    clock.advance(2);
    await core.checkpoint({});
    const answer = await core.endOrDiscard({ agent: AGENT, endAt: { kind: "last" } });
    expect(answer.discardedEmpty).toBeUndefined();
    expect(confirmedPaths(store)).toHaveLength(1);
  });
});

describe("the learner's own 0-minute end", () => {
  it("is saved as before", async () => {
    const { core, store } = await opened(null);
    const answer = await core.endOrDiscard({});
    expect(answer.discardedEmpty).toBeUndefined();
    expect(confirmedPaths(store)).toHaveLength(1);
    expect(draftPaths(store)).toEqual([]);
  });
});
