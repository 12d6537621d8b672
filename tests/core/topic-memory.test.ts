/**
 * hot.md is the working memory of the topic being studied (contract §2 hot.md, version 3; issue 19 item 1):
 * it names the topic and the day of its newest session, carries the topic's last next action forward, and is
 * the same whether written by start, end, log (the incremental path over index.md or a full scan) or rebuild.
 */
import { classifyRecord } from "../../src/core/records/frontmatter";
import { HOT_WORD_LIMIT, countWords, renderHotBody, topicNoteLink } from "../../src/core/records/hot-memory";
import { interpretConfirmed } from "../../src/core/records/records";
import type { ConfirmedSession } from "../../src/core/records/records";
import { confirmedText, hotText } from "../support/builders";
import { harness } from "../support/fakes";
import type { Harness } from "../support/fakes";
import { HOT, S, fields } from "../support/inspect";

function hotBody(h: Harness): string {
  const read = classifyRecord(h.store.files.get(HOT) ?? null);
  if (read.state !== "ok") throw new Error(`hot.md reads as ${read.state}`);
  return read.body;
}

/** One sitting: start, `minutes` of study, end with the given summary and next action. */
async function sitting(h: Harness, topic: string, summary: string | null, nextAction: string | null): Promise<void> {
  const started = await h.core.start({ topic, ignorePending: true });
  if (started.status !== "started") throw new Error(`start ${started.status}`);
  h.clock.advance(30);
  await h.core.end({ summary, nextAction });
  h.clock.advance(60);
}

/** hot.md's body is exactly what a rebuild writes from the notes (contract §2: derived views). */
async function expectRebuildAgrees(h: Harness): Promise<void> {
  const written = hotBody(h);
  await h.core.rebuild();
  expect(hotBody(h)).toBe(written);
}

describe.each([
  ["a full scan", false],
  ["the incremental index", true],
])("working memory of the active topic (%s)", (_name, bounded) => {
  it("carries an older session's next action forward, with its day, past a session ended without one", async () => {
    const h = harness({ bounded });
    await sitting(h, "T-rust", "Borrowing rules", "Read chapter 5");
    h.clock.advance(24 * 60);
    await sitting(h, "T-rust", "Lifetimes, part one", null);
    const body = hotBody(h);
    expect(body).toMatch(/^Topic: T-rust, newest session 2026-08-15\n/);
    expect(body).toContain("## Summary\n\nLifetimes, part one\n");
    expect(body).toContain("## Next action (from 2026-08-14)\n\nRead chapter 5\n");
    expect(body).not.toContain("Borrowing rules"); // the older session gives its next action only
    const sources = [...body.matchAll(/^Source: \[\[(S-[^\]]+)\]\]$/gm)].map((m) => m[1]);
    expect(sources).toHaveLength(2);
    expect(fields(h.store, HOT).last_session).toBe(sources[0]);
    await expectRebuildAgrees(h);
  });

  it("a newer next action replaces the carried one, shown without a day", async () => {
    const h = harness({ bounded });
    await sitting(h, "T-rust", "one", "Read chapter 5");
    await sitting(h, "T-rust", "two", null);
    await sitting(h, "T-rust", "three", "Do the exercises");
    const body = hotBody(h);
    expect(body).toContain("## Next action\n\nDo the exercises\n");
    expect(body).not.toContain("Read chapter 5");
    expect(body.match(/^Source: /gm)).toHaveLength(1);
    await expectRebuildAgrees(h);
  });

  it("a summary-less log does not hide the topic's next action", async () => {
    const h = harness({ bounded });
    await sitting(h, "T-rust", "Borrowing rules", "Read chapter 5");
    await h.core.log({ topic: "T-rust", minutes: 20 });
    const body = hotBody(h);
    expect(body).toContain("Read chapter 5");
    expect(body).not.toContain("## Summary"); // the log recorded none
    expect(body).toMatch(/^Source: \[\[S-/m);
    await expectRebuildAgrees(h);
  });

  it("with three interleaved topics, start shows the started topic's memory, not the newest session's", async () => {
    const h = harness({ bounded });
    await sitting(h, "T-rust", "Rust summary", "Rust next");
    await sitting(h, "T-sql", "SQL summary", "SQL next");
    await sitting(h, "T-go", "Go summary", "Go next");
    await sitting(h, "T-sql", "SQL again", null);
    const started = await h.core.start({ topic: "T-rust" });
    if (started.status !== "started") throw new Error(started.status);
    expect(started.hotBody).toMatch(/^Topic: T-rust, newest session 2026-08-14\n/);
    expect(started.hotBody).toContain("Rust summary");
    expect(started.hotBody).toContain("## Next action\n\nRust next");
    expect(started.hotBody).not.toMatch(/SQL|Go /);
    expect(hotBody(h).trim()).toBe(started.hotBody);
    // The newest session overall is still last_session.
    expect(started.lastSession).toBe(fields(h.store, HOT).last_session);
    // Ending a summary-less Rust session keeps the Rust next action (and none of SQL's).
    h.clock.advance(30);
    await h.core.end({});
    expect(hotBody(h)).toContain("Rust next");
    expect(hotBody(h)).not.toContain("SQL");
    await expectRebuildAgrees(h);
  });

  it("a topic with no session yet gets one line naming it", async () => {
    const h = harness({ bounded });
    await sitting(h, "T-rust", "Rust summary", "Rust next");
    const started = await h.core.start({ topic: "T-new" });
    if (started.status !== "started") throw new Error(started.status);
    expect(started.hotBody).toBe("No sessions on T-new yet: end a session on it to start its working memory.");
    expect(started.hotBody.split("\n")).toHaveLength(1);
  });

  it("names the topic note the sessions link to", async () => {
    const h = harness({ bounded });
    await h.core.start({ topic: "T-rust", topicNote: "[[Rust ownership]]" });
    h.clock.advance(30);
    await h.core.end({ summary: "Borrowing" });
    expect(hotBody(h)).toMatch(/^Topic: T-rust \(\[\[Rust ownership\]\]\), newest session 2026-08-14\n/);
    await expectRebuildAgrees(h);
  });
});

describe("working memory with no active topic", () => {
  it("is the memory of the newest session's topic", async () => {
    const h = harness();
    h.store.files.set(
      S("S-20260812T100000-aaaa"),
      confirmedText(
        { session_id: "S-20260812T100000-aaaa", topic_id: "T-a", started_at: "2026-08-12T10:00:00+00:00" },
        { summary: "A summary", next: "A next" },
      ),
    );
    h.store.files.set(
      S("S-20260813T100000-bbbb"),
      confirmedText({ session_id: "S-20260813T100000-bbbb", topic_id: "T-b" }, { summary: "B summary" }),
    );
    h.store.files.set(HOT, hotText({ active_topic: null }));
    await h.core.rebuild();
    const body = hotBody(h);
    expect(body).toMatch(/^Topic: T-b, newest session 2026-08-13\n/);
    expect(body).toContain("B summary");
    expect(body).not.toContain("A ");
  });
});

describe("the cost of carrying a next action forward", () => {
  it("end reads the topic's notes back to the newest next action, and none older", async () => {
    const h = harness({ bounded: true });
    const ids: string[] = [];
    for (let day = 1; day <= 12; day++) {
      const id = `S-202608${String(day).padStart(2, "0")}T080000-00${day.toString(16).padStart(2, "0")}`;
      ids.push(id);
      h.store.files.set(
        S(id),
        confirmedText(
          {
            session_id: id,
            started_at: `2026-08-${String(day).padStart(2, "0")}T08:00:00+00:00`,
            ended_at: `2026-08-${String(day).padStart(2, "0")}T08:30:00+00:00`,
            duration_minutes: 30,
          },
          // Day 9 has the newest next action; days 10–12 have none.
          { summary: `day ${day}`, ...(day <= 9 ? { next: `next of day ${day}` } : {}) },
        ),
      );
      h.store.mtimes.set(S(id), Date.parse(`2026-08-${String(day).padStart(2, "0")}T08:30:00Z`));
    }
    await h.core.rebuild();
    const started = await h.core.start({ topic: "T-rust-ownership" });
    expect(started.status).toBe("started");
    const reads: string[] = [];
    const read = h.store.read.bind(h.store);
    h.store.read = (path: string) => {
      reads.push(path);
      return read(path);
    };
    h.clock.advance(30);
    await h.core.end({ summary: "today" });
    expect(hotBody(h)).toContain("## Next action (from 2026-08-09)\n\nnext of day 9\n");
    const older = ids.slice(0, 8).map(S); // days 1–8: never needed
    expect(reads.filter((p) => older.includes(p))).toEqual([]);
  });
});

function session(id: string, sections: { summary?: string; next?: string }, topic = "T-rust"): ConfirmedSession {
  const text = confirmedText({ session_id: id, topic_id: topic }, sections);
  const result = interpretConfirmed(`palee/sessions/${id}.md`, classifyRecord(text), () => 0);
  if (!("record" in result)) throw new Error(result.reason);
  return result.record;
}

describe("working memory body rules", () => {
  it("gives a carried next action its words before the summary, within the 250", () => {
    const newest = session("S-20260813T100000-bbbb", { summary: "long ".repeat(400) });
    const carried = session("S-20260812T100000-aaaa", { next: "step ".repeat(100).trim() });
    const body = renderHotBody({ topicId: "T-rust", newest, carried });
    expect(body).toContain(`## Next action (from 2026-08-13)\n\n${"step ".repeat(100).trim()}\n`);
    expect(body).toContain("long…\n");
    expect(countWords(body)).toBe(HOT_WORD_LIMIT);
  });

  it("stays within 250 words with a huge legacy topic and note name", () => {
    const newest = session(
      "S-20260813T100000-bbbb",
      { summary: "s ".repeat(300), next: "n ".repeat(300) },
      "w ".repeat(5000),
    );
    const body = renderHotBody({
      topicId: newest.topicId,
      newest: { ...newest, topicNote: "[[a b c]]" },
      carried: null,
    });
    expect(countWords(body)).toBeLessThanOrEqual(HOT_WORD_LIMIT);
    expect(body).toContain("## Next action");
    expect(body.trimEnd().endsWith("Source: [[S-20260813T100000-bbbb]]")).toBe(true);
  });

  it("renders a hostile topic and topic note so no link, table cell or line break escapes", () => {
    const topicId = "x]] | [[evil\nline";
    const newest = session("S-20260813T100000-bbbb", { summary: "s" }, topicId);
    for (const topicNote of ["[[a]] | [[b]]", "[[a\nb]]", "[[]]", "[[Note|alias]]"]) {
      const body = renderHotBody({ topicId, newest: { ...newest, topicNote }, carried: null });
      const header = body.split("\n")[0];
      const withoutLinks = header.replace(/\[\[[^[\]|\n]+\]\]/g, "");
      expect(withoutLinks).not.toMatch(/\[\[|\]\]|(?<!\\)\|/);
      expect(body.split("\n")[1]).toBe("");
    }
    expect(noSessionsLine(topicId)).not.toMatch(/\[\[|\]\]|(?<!\\)\||\n./);
  });

  it("links a topic note by its name, without alias, and refuses what a link cannot hold", () => {
    expect(topicNoteLink("[[Rust ownership]]")).toBe("[[Rust ownership]]");
    expect(topicNoteLink("[[Rust ownership|Rust]]")).toBe("[[Rust ownership]]");
    expect(topicNoteLink("Rust ownership")).toBe("[[Rust ownership]]");
    expect(topicNoteLink("[[a]] [[b]]")).toBeNull();
    expect(topicNoteLink("[[a\nb]]")).toBeNull();
    expect(topicNoteLink("[[]]")).toBeNull();
    expect(topicNoteLink(null)).toBeNull();
  });
});

function noSessionsLine(topicId: string): string {
  return renderHotBody({ topicId, newest: null, carried: null });
}
