/**
 * The topic note read from a note's frontmatter (src/core/topics/note.ts): the one function both faces' readers
 * use, so the CLI and the plugin agree on what is a topic note and what is a broken one.
 */
import { collectTopicNotes, readTopicNote, readTopicNoteHead } from "../../../src/core/topics/note";

describe("readTopicNote: a note's frontmatter fields, classified", () => {
  it("a palee_id matching the topic-ID pattern is a topic note, trimmed, with its aliases", () => {
    expect(readTopicNote("Topics/Rust ownership.md", { palee_id: " T-rust ", aliases: ["Ownership", 3, " "] })).toEqual(
      {
        kind: "topic",
        note: { path: "Topics/Rust ownership.md", name: "Rust ownership", aliases: ["Ownership"], topicId: "T-rust" },
      },
    );
  });

  it("no palee_id (absent or null) is no topic note", () => {
    expect(readTopicNote("A.md", { title: "x" })).toBeNull();
    expect(readTopicNote("A.md", { palee_id: null })).toBeNull();
  });

  it.each([
    ["go basics", "go basics", "go basics"],
    ["  git_rebase ", "  git_rebase ", "git_rebase"],
    ["(none)", "(none)", null],
    ["", "", null],
    [7, "7", null],
    [["T-a"], '["T-a"]', null],
  ])("palee_id %j is a broken one, named %j, legacy %j", (value, written, legacy) => {
    const read = readTopicNote("notes/Go.md", { palee_id: value });
    expect(read).toEqual({
      kind: "invalid-id",
      note: { path: "notes/Go.md", name: "Go", aliases: [], topicId: written },
      legacy,
    });
  });

  it("reads a frontmatter block; YAML that does not parse is nothing", () => {
    expect(readTopicNoteHead("A.md", "---\npalee_id: T-a\n---\n")?.kind).toBe("topic");
    expect(readTopicNoteHead("A.md", "---\npalee_id: a b\n---\n")?.kind).toBe("invalid-id");
    expect(readTopicNoteHead("A.md", "---\npalee_id: [T-a\n---\n")).toBeNull();
  });
});

describe("collectTopicNotes", () => {
  it("keeps the valid notes, the broken ones, and the broken ones a record may still use by their legacy ID", () => {
    const reads = [
      readTopicNote("a.md", { palee_id: "T-a" }),
      null,
      readTopicNote("b.md", { palee_id: " git_rebase" }),
      readTopicNote("c.md", { palee_id: 5 }),
    ];
    const got = collectTopicNotes(reads);
    expect(got.notes.map((n) => n.topicId)).toEqual(["T-a"]);
    expect(got.invalid.map((n) => n.topicId)).toEqual([" git_rebase", "5"]);
    expect(got.legacy.map((n) => [n.path, n.topicId])).toEqual([["b.md", "git_rebase"]]);
  });
});
