import { classifyRecord } from "../../src/core/records/frontmatter";
import {
  EMPTY_HOT,
  HOT_WORD_LIMIT,
  countWords,
  renderHot,
  renderHotBody,
  truncateWords,
} from "../../src/core/records/hot-memory";
import { interpretConfirmed } from "../../src/core/records/records";
import type { ConfirmedSession } from "../../src/core/records/records";
import { renderIndex } from "../../src/core/records/session-index";
import { confirmedText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT } from "../support/inspect";

function session(
  id: string,
  sections: { summary?: string; next?: string; notes?: string },
  fields: Record<string, string | number> = {},
): ConfirmedSession {
  const path = `palee/sessions/${id}.md`;
  const result = interpretConfirmed(
    path,
    classifyRecord(confirmedText({ session_id: id, ...fields }, sections)),
    () => 0,
  );
  if (!("record" in result)) throw new Error(result.reason);
  return result.record;
}

/** The body of `s`'s topic when `s` is its only session. */
function bodyOf(s: ConfirmedSession): string {
  return renderHotBody({ topicId: s.topicId, newest: s, carried: null });
}

const HEADER = "Topic: T-rust-ownership, newest session 2026-08-13\n\n";

describe("working memory body", () => {
  it("says there is no history when there are no sessions", () => {
    expect(renderHotBody(null)).toMatch(/^No history yet/);
    expect(countWords(renderHotBody(null))).toBeLessThan(20);
  });

  it("carries the newest summary and next action and ends with the source link", () => {
    const body = bodyOf(session("S-20260814T120000-abcd", { summary: "Borrowing rules", next: "Read chapter 5" }));
    expect(body).toBe(
      HEADER +
        "## Summary\n\nBorrowing rules\n\n## Next action\n\nRead chapter 5\n\nSource: [[S-20260814T120000-abcd]]\n",
    );
  });

  it.each([
    ["a long summary", { summary: "w ".repeat(1000), next: "next" }],
    ["a long next action", { summary: "short", next: "w ".repeat(1000) }],
    ["both long", { summary: "a ".repeat(300), next: "b ".repeat(300) }],
    ["exactly at the limit", { summary: "a ".repeat(HOT_WORD_LIMIT - 3) }],
  ])("stays within the word limit with %s", (_name, sections) => {
    const body = bodyOf(session("S-20260814T120000-abcd", sections));
    expect(countWords(body)).toBeLessThanOrEqual(HOT_WORD_LIMIT);
    expect(body.trimEnd().endsWith("Source: [[S-20260814T120000-abcd]]")).toBe(true);
  });

  it("falls back to the notes of a session saved without a summary, within the limit", () => {
    const body = bodyOf(session("S-20260814T120000-abcd", { notes: "where I stopped " + "w ".repeat(400) }));
    expect(body.startsWith(`${HEADER}## Notes\n\nwhere I stopped`)).toBe(true);
    expect(countWords(body)).toBeLessThanOrEqual(HOT_WORD_LIMIT);
    expect(bodyOf(session("S-20260814T120000-abcd", {}))).toBe(
      HEADER + "No summary was recorded for the last session.\n\nSource: [[S-20260814T120000-abcd]]\n",
    );
  });

  it("does not take a Summary heading the learner wrote inside their notes for the session's summary", () => {
    const body = bodyOf(session("S-20260814T120000-abcd", { notes: "## Summary\n\nchapter outline\n\nmore notes" }));
    expect(body.startsWith(`${HEADER}## Notes\n\n## Summary\n\nchapter outline`)).toBe(true);
  });

  it("cuts at a word boundary and marks the cut", () => {
    expect(truncateWords("one two  three four", 2)).toBe("one two…");
    expect(truncateWords("one two", 2)).toBe("one two");
    expect(truncateWords("one two", 5)).toBe("one two");
  });

  it("renders hot.md frontmatter with the open-session pointer", () => {
    const text = renderHot(
      {
        ...EMPTY_HOT,
        activeTopic: "T-a",
        startedAt: "2026-08-14T12:00:00+05:30",
        openDraft: "DRAFT-S-00000001",
        device: "my laptop",
      },
      null,
      "2026-08-14",
    );
    expect(classifyRecord(text)).toMatchObject({
      state: "ok",
      fields: {
        memory_id: "H-active",
        active_topic: "T-a",
        started_at: "2026-08-14T12:00:00+05:30",
        open_draft: "DRAFT-S-00000001",
        device: "my laptop",
        updated_at: "2026-08-14",
      },
    });
  });
});

describe("index", () => {
  it("lists every session newest first with the recorded local day", () => {
    const a = session("S-20260814T063000-aaaa", {}, { started_at: "2026-08-14T12:00:00+05:30", duration_minutes: 45 });
    const text = renderIndex([a], "2026-08-20");
    expect(text).toBe(
      '---\npalee_schema: 1\ntype: session_index\nupdated_at: "2026-08-20"\n---\n# PALEE session ' +
        "index\n\nTotal sessions: 1\n\n- [[S-20260814T063000-aaaa]] - Topic: T-rust-ownership " +
        "(2026-08-14, 45 min)\n",
    );
    expect(renderIndex([], "2026-08-20")).toContain("Total sessions: 0\n");
  });

  it("escapes a legacy topic that would break the list", () => {
    const hostile = session("S-20260814T063000-aaaa", {}, { topic_id: "x]] | [[evil" });
    const line =
      renderIndex([hostile], "2026-08-20")
        .split("\n")
        .find((l) => l.startsWith("- ")) ?? "";
    expect(line).toBe("- [[S-20260814T063000-aaaa]] - Topic: x\\]\\] \\| \\[\\[evil (2026-08-13, 45 min)");
  });
});

describe("sharing the 250 words between summary and next action", () => {
  it("keeps the whole next action after a long summary, cutting the summary instead", () => {
    const body = bodyOf(
      session("S-20260814T120000-abcd", { summary: "long ".repeat(400), next: "Read chapter 5 of the book" }),
    );
    expect(body).toContain("## Next action\n\nRead chapter 5 of the book\n");
    expect(body.startsWith(`${HEADER}## Summary\n\nlong long`)).toBe(true);
    expect(body).toContain("long…\n");
    expect(countWords(body)).toBe(HOT_WORD_LIMIT);
  });

  it("gives a next action longer than the limit every word it can, within the limit", () => {
    const body = bodyOf(session("S-20260814T120000-abcd", { summary: "short summary", next: "step ".repeat(400) }));
    expect(body).toContain("## Next action\n\nstep step");
    expect(countWords(body)).toBeLessThanOrEqual(HOT_WORD_LIMIT);
    expect(body.trimEnd().endsWith("Source: [[S-20260814T120000-abcd]]")).toBe(true);
  });
});

describe("working memory shows the summary as written", () => {
  it("a summary containing Markdown headings is not cut short or mistaken for another section in hot.md", async () => {
    const { core, store, clock } = harness();
    await core.start({ topic: "T-rust-ownership" });
    clock.advance(30);
    await core.end({
      summary: "Covered two parts.\n# Part two: borrowing\n## Next action\nnot the next action",
      nextAction: "Read chapter 5",
    });
    const hot = classifyRecord(store.files.get(HOT) ?? null);
    if (hot.state !== "ok") throw new Error(hot.state);
    expect(hot.body).toContain("Part two: borrowing");
    const nextSection = hot.body.split(/^## Next action$/m)[1] ?? "";
    expect(nextSection).toContain("Read chapter 5");
    expect(nextSection).not.toContain("not the next action");
  });
});
