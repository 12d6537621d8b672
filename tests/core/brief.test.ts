/** The tutor brief (contract §4b context), show and latest: the pure renderer and the operations over a store. */
import type { BriefInput, BriefSession } from "../../src/core/records/brief";
import { briefTotals, carriedNextAction, renderBrief, renderTopicNote } from "../../src/core/records/brief";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { countWords } from "../../src/core/records/hot-memory";
import type { ConfirmedSession } from "../../src/core/records/records";
import { interpretConfirmed } from "../../src/core/records/records";
import { confirmedText, draftText, hotText } from "../support/builders";
import { harness } from "../support/fakes";

const DIR = "palee/sessions";

function record(id: string, topic: string, day: string, minutes: number, topicNote?: string): ConfirmedSession {
  const fields = {
    session_id: id,
    topic_id: topic,
    started_at: `${day}T10:00:00+00:00`,
    ended_at: `${day}T11:00:00+00:00`,
    duration_minutes: minutes,
    ...(topicNote ? { topic_note: topicNote } : {}),
  };
  const result = interpretConfirmed(`${DIR}/${id}.md`, classifyRecord(confirmedText(fields)), () => 0);
  if (!("record" in result)) throw new Error(result.reason);
  return result.record;
}

function briefSession(id: string, day: string, summary: string | null, next: string | null = null): BriefSession {
  return { session: record(id, "T-rust", day, 30), summary, nextAction: next };
}

const SESSIONS: BriefSession[] = [
  briefSession("S-20260814T100000-aaaa", "2026-08-14", "Lifetimes in structs " + "word ".repeat(40)),
  briefSession("S-20260813T100000-bbbb", "2026-08-13", "Borrowing rules " + "more ".repeat(40), "Exercise 4.2"),
  briefSession("S-20260812T100000-cccc", "2026-08-12", "Ownership moves", "Read chapter 4"),
];

function input(words: number, over: Partial<BriefInput> = {}): BriefInput {
  return {
    topicId: "T-rust",
    topicNote: "[[Rust ownership]]",
    totals: { sessions: 3, minutes: 90, first: "2026-08-12", last: "2026-08-14" },
    open: { startedAt: "2026-08-15T09:00:00+00:00", elapsedSeconds: 25 * 60, notes: "- drafting notes on Rc" },
    nextAction: carriedNextAction(SESSIONS),
    sessions: SESSIONS,
    words,
    ...over,
  };
}

describe("renderBrief", () => {
  it.each([0, 1, 2, 3, 5, 8, 13, 21, 34, 50, 77, 120, 400, 5000])("never exceeds a budget of %i words", (words) => {
    const { text } = renderBrief(input(words));
    expect(countWords(text)).toBeLessThanOrEqual(words);
  });

  it("fills a budget that cuts into the sessions exactly (the cut word ends with …)", () => {
    const { text, shown } = renderBrief(input(60));
    expect(countWords(text)).toBe(60);
    expect(text.trimEnd()).toMatch(/…$/);
    expect(shown).toBeGreaterThanOrEqual(1);
  });

  it("shows the topic, its note link, totals, the open session with its notes and the carried next action", () => {
    const { text } = renderBrief(input(400));
    expect(text).toContain("# Tutor brief: T-rust (topic note [[Rust ownership]])");
    expect(text).toContain("3 sessions, 1 h 30 min studied, from 2026-08-12 to 2026-08-14.");
    expect(text).toContain(
      "## Open session\n\nStarted 2026-08-15T09:00:00+00:00, 25 min so far.\n\n- drafting notes on Rc",
    );
    // The newest session has no next action: the one of 2026-08-13 is carried forward, with its day.
    expect(text).toContain("## Next action (from 2026-08-13)\n\nExercise 4.2");
    expect(text.indexOf("### 2026-08-14")).toBeLessThan(text.indexOf("### 2026-08-13"));
    expect(text).toContain("### 2026-08-12, 30 min\n\nOwnership moves");
  });

  it("gives the next action its words before the open session and the sessions", () => {
    const { text } = renderBrief(input(27));
    expect(text).toContain("## Next action (from 2026-08-13)\n\nExercise 4.2");
    expect(text).not.toContain("## Sessions");
    // A block is never cut down to its heading alone.
    expect(renderBrief(input(19)).text).not.toContain("##");
  });

  it("names no day for a next action of the newest session, and says when a topic has no sessions", () => {
    expect(carriedNextAction([SESSIONS[1], SESSIONS[2]])?.carried).toBe(false);
    const empty = renderBrief(
      input(400, { sessions: [], nextAction: null, open: null, topicNote: null, totals: briefTotals([]) }),
    );
    expect(empty.text).toBe("# Tutor brief: T-rust\n\nNo sessions on T-rust yet.\n");
  });

  it("renders a hostile topic note so it cannot break the Markdown", () => {
    expect(renderTopicNote("[[Rust ownership|alias]]")).toBe("[[Rust ownership]]");
    expect(renderTopicNote("x]] | [[y\nz")).not.toMatch(/\[\[|\n/);
  });
});

describe("context over a vault", () => {
  function vault() {
    const h = harness({ at: "2026-08-15T09:30:00Z" });
    const put = (path: string, text: string) => h.store.files.set(path, text);
    const confirmed = (id: string, topic: string, day: string, sections: { summary?: string; next?: string }) =>
      put(
        `${DIR}/${id}.md`,
        confirmedText(
          {
            session_id: id,
            topic_id: topic,
            started_at: `${day}T10:00:00+00:00`,
            ended_at: `${day}T10:40:00+00:00`,
            duration_minutes: 40,
            ...(topic === "T-rust" ? { topic_note: "[[Rust ownership]]" } : {}),
          },
          sections,
        ),
      );
    confirmed("S-20260812T100000-aaaa", "T-rust", "2026-08-12", { summary: "Ownership moves", next: "Do 4.1" });
    confirmed("S-20260813T100000-bbbb", "T-sql", "2026-08-13", { summary: "SQL joins secret", next: "SQL next" });
    confirmed("S-20260814T100000-cccc", "T-rust", "2026-08-14", { summary: "Borrowing, no next action" });
    return { h, put };
  }

  it("briefs the active topic with its open session, and nothing of another topic", async () => {
    const { h, put } = vault();
    put(
      `${DIR}/DRAFT-S-0000abcd.md`,
      draftText(
        { session_id: "DRAFT-S-0000abcd", topic_id: "T-rust", started_at: "2026-08-15T09:00:00+00:00" },
        "- open notes on Rc\n",
      ),
    );
    put(
      "palee/hot.md",
      hotText({
        active_topic: "T-rust",
        started_at: "2026-08-15T09:00:00+00:00",
        open_draft: "DRAFT-S-0000abcd",
        device: "laptop",
      }),
    );
    const r = await h.core.brief({ words: 400 });
    expect(r.topicId).toBe("T-rust");
    expect(r.topicNote).toBe("[[Rust ownership]]");
    expect(r.totals).toEqual({ sessions: 2, minutes: 80, first: "2026-08-12", last: "2026-08-14" });
    expect(r.open?.draftId).toBe("DRAFT-S-0000abcd");
    expect(r.text).toContain("- open notes on Rc");
    expect(r.nextAction).toMatchObject({ text: "Do 4.1", day: "2026-08-12", carried: true });
    expect(r.sessions.map((s) => s.session.sessionId)).toEqual(["S-20260814T100000-cccc", "S-20260812T100000-aaaa"]);
    expect(r.text).not.toMatch(/SQL/);
  });

  it("briefs the newest session's topic when none is active; an explicit topic is briefed alone", async () => {
    const { h } = vault();
    expect((await h.core.brief()).topicId).toBe("T-rust");
    const sql = await h.core.brief({ topic: "T-sql" });
    expect(sql.text).toContain("SQL joins secret");
    expect(sql.text).not.toMatch(/Ownership|Borrowing|Do 4\.1/);
    expect(sql.open).toBeNull();
  });

  it("answers clearly when there is no topic at all, and refuses an invalid topic", async () => {
    const h = harness();
    const r = await h.core.brief({ words: 50 });
    expect(r.topicId).toBeNull();
    expect(r.text).toMatch(/nothing to brief/);
    await expect(h.core.brief({ topic: "[[x|y]]" })).rejects.toMatchObject({ kind: "invalid_topic" });
  });

  it("shows one record whole and refuses unknown or malformed IDs without using them as paths", async () => {
    const { h } = vault();
    const r = await h.core.show("S-20260812T100000-aaaa");
    expect(r.kind === "session" && r.session.summary).toBe("Ownership moves");
    for (const id of ["../../etc/passwd", "S-20260812T100000-zzzz", "DRAFT-S-00000000", ""]) {
      await expect(h.core.show(id)).rejects.toMatchObject({ kind: "no_such_session", exitCode: 2 });
    }
  });

  it("gives the newest confirmed session, of a topic when asked, or null", async () => {
    const { h } = vault();
    const any = await h.core.latest();
    expect(any?.kind === "session" && any.session.session.sessionId).toBe("S-20260814T100000-cccc");
    const sql = await h.core.latest("T-sql");
    expect(sql?.kind === "session" && sql.session.nextAction).toBe("SQL next");
    expect(await h.core.latest("T-none")).toBeNull();
  });
});

describe("context and latest from a trusted index.md (the CLI's bounded reads)", () => {
  function bigVault() {
    const h = harness({ at: "2026-08-15T09:30:00Z", bounded: true });
    for (let i = 0; i < 60; i++) {
      const day = `2026-06-${String((i % 30) + 1).padStart(2, "0")}`;
      const hour = String(8 + Math.floor(i / 30)).padStart(2, "0");
      const id = `S-${day.replace(/-/g, "")}T${hour}0000-${String(i).padStart(4, "0")}`;
      h.store.files.set(
        `${DIR}/${id}.md`,
        confirmedText(
          {
            session_id: id,
            topic_id: i % 3 === 0 ? "T-rust" : "T-sql",
            started_at: `${day}T${hour}:00:00+00:00`,
            ended_at: `${day}T${hour}:30:00+00:00`,
            duration_minutes: 30,
          },
          { summary: `Summary ${i} ${"w ".repeat(50)}`, next: `Next ${i}` },
        ),
      );
    }
    return h;
  }

  it("gives what a full scan gives, reading only the topic's notes (for their ratings), each once", async () => {
    const h = bigVault();
    await h.core.rebuild();
    const full = await harness({ at: "2026-08-15T09:30:00Z", store: h.store }).core.brief({ topic: "T-rust" });
    const reads = jest.spyOn(h.store, "read");
    const quick = await h.core.brief({ topic: "T-rust" });
    expect(quick).toEqual(full);
    expect(quick.totals).toEqual({ sessions: 20, minutes: 600, first: "2026-06-01", last: "2026-06-28" });
    const notes = reads.mock.calls.map(([p]) => p).filter((p) => /\/S-[^/]+\.md$/.test(p));
    // Version 4: the review line needs every rating of the topic (contract §4c), so each of its 20 notes is
    // read once; no note of another topic is.
    expect(notes.length).toBe(20);
    expect(new Set(notes).size).toBe(20);
    for (const path of notes) expect(h.store.files.get(path)).toContain("topic_id: T-rust");
    const latest = await h.core.latest("T-sql");
    expect(latest?.kind === "session" && latest.session.session.topicId).toBe("T-sql");
  });

  it("falls back to every note when a note it reads no longer agrees with its index line", async () => {
    const h = bigVault();
    await h.core.rebuild();
    // The newest T-rust note (i = 57, read by every brief of T-rust) edited by hand to another topic.
    const path = `${DIR}/S-20260628T090000-0057.md`;
    h.store.files.set(path, (h.store.files.get(path) ?? "").replace("topic_id: T-rust", "topic_id: T-go"));
    const r = await h.core.brief({ topic: "T-rust" });
    expect(r.totals).toEqual({ sessions: 19, minutes: 570, first: "2026-06-01", last: "2026-06-28" });
    expect(r.text).not.toContain("Summary 57 ");
    expect((await h.core.latest("T-rust"))?.kind === "session").toBe(true);
  });
});
