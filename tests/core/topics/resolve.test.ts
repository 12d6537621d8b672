import { PaleeError, TopicLookupError } from "../../../src/core/errors";
import { editDistance } from "../../../src/core/topics/distance";
import type { TopicNote } from "../../../src/core/topics/note";
import { topicNoteOf } from "../../../src/core/topics/note";
import {
  classifyTopicValue,
  closeTopicId,
  closestNotes,
  findTopicByName,
  newTopicNotice,
  topicIdForName,
  topicNoteForName,
  unknownTopicIdRefusal,
  unknownTopicIdText,
} from "../../../src/core/topics/resolve";

const note = (path: string, topicId: string, aliases: string[] = []): TopicNote => ({
  path,
  name: path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, ""),
  aliases,
  topicId,
});

const RUST = note("Topics/Rust ownership.md", "T-rust-ownership", ["Ownership", "borrowing"]);
const LIFETIMES = note("Topics/Rust lifetimes.md", "T-rust-lifetimes", ["Lifetimes"]);
const ALGEBRA = note("Maths/Linear algebra.md", "T-linear-algebra");
const NOTES = [RUST, LIFETIMES, ALGEBRA];

function refusal(run: () => unknown): PaleeError {
  try {
    run();
  } catch (error) {
    if (error instanceof PaleeError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("classifyTopicValue: what a typed value is, before any note is read", () => {
  it("blank and (none) mean no topic", () => {
    for (const raw of [undefined, null, "", "   ", "(none)", " (NONE) "]) {
      expect(classifyTopicValue(raw)).toEqual({ kind: "none" });
    }
  });

  it("a value matching the topic-ID pattern is an ID, used as typed", () => {
    expect(classifyTopicValue(" T-rust-ownership ")).toEqual({ kind: "id", topicId: "T-rust-ownership" });
    expect(classifyTopicValue("T-music-theory.modes")).toEqual({ kind: "id", topicId: "T-music-theory.modes" });
  });

  it("anything else is a name", () => {
    expect(classifyTopicValue("Rust ownership")).toEqual({ kind: "name", name: "Rust ownership" });
    expect(classifyTopicValue("T-a/b")).toEqual({ kind: "name", name: "T-a/b" });
  });

  it('refuses "[[", "]]", "|", line breaks and control characters as invalid_topic', () => {
    for (const raw of ["[[Rust ownership", "Rust]]", "Rust|alias", "Rust\nownership", "a\u0007b", "a\u2028b"]) {
      const error = refusal(() => classifyTopicValue(raw));
      expect({ raw, kind: error.kind, exit: error.exitCode }).toEqual({ raw, kind: "invalid_topic", exit: 2 });
      expect(error.message).toMatch(/cannot contain/);
      expect(error.message).not.toMatch(/\n/);
    }
  });

  it("refuses a value of 10 000 characters, quoting only its start", () => {
    const error = refusal(() => classifyTopicValue("x".repeat(10_000)));
    expect(error.kind).toBe("invalid_topic");
    expect(error.message).toContain("this one has 10000");
    expect(error.message.length).toBeLessThan(300);
  });

  it("a broken ID keeps the ID's own message", () => {
    expect(refusal(() => classifyTopicValue("T-[[x]]|y")).message).toMatch(/^invalid topic ID /);
  });
});

describe("topicNoteOf: a topic note from its frontmatter block", () => {
  it("takes palee_id, the file name and aliases as a list", () => {
    const head = "---\npalee_id: T-rust-ownership\naliases:\n  - Ownership\n  - borrowing\n---\n";
    expect(topicNoteOf("Topics/Rust ownership.md", head)).toEqual(RUST);
  });

  it("takes aliases as one string, and none", () => {
    expect(topicNoteOf("A.md", "---\npalee_id: T-a\naliases: Alpha\n---\n")?.aliases).toEqual(["Alpha"]);
    expect(topicNoteOf("A.md", "---\npalee_id: T-a\n---\n")?.aliases).toEqual([]);
    expect(topicNoteOf("A.md", "---\npalee_id: T-a\naliases: [1, '', B]\n---\n")?.aliases).toEqual(["B"]);
  });

  it("is null without a usable palee_id or frontmatter", () => {
    for (const head of [
      "---\ntitle: x\n---\n",
      "---\npalee_id: rust\n---\n",
      "---\npalee_id: 3\n---\n",
      "---\npalee_id: [T-a\n---\n",
      "no frontmatter",
    ]) {
      expect({ head, note: topicNoteOf("A.md", head) }).toEqual({ head, note: null });
    }
  });
});

describe("findTopicByName: the contract's order", () => {
  it("1. the vault path, with or without .md", () => {
    expect(findTopicByName("Topics/Rust ownership.md", NOTES)).toMatchObject({ kind: "found", note: RUST, by: "path" });
    expect(findTopicByName("Topics/Rust ownership", NOTES)).toMatchObject({ kind: "found", note: RUST, by: "path" });
    expect(findTopicByName("./Maths/Linear algebra", NOTES)).toMatchObject({ note: ALGEBRA, by: "path" });
  });

  it("a path beats a name: a note named like another note's path", () => {
    const odd = note("Topics.md", "T-odd", ["Maths/Linear algebra"]);
    expect(findTopicByName("Maths/Linear algebra", [odd, ALGEBRA])).toMatchObject({ note: ALGEBRA, by: "path" });
  });

  it("2. the file name or an alias, ignoring case", () => {
    expect(findTopicByName("rust OWNERSHIP", NOTES)).toMatchObject({ kind: "found", note: RUST, by: "name" });
    expect(findTopicByName("lifetimes", NOTES)).toMatchObject({ kind: "found", note: LIFETIMES, by: "name" });
    expect(findTopicByName("Borrowing", NOTES)).toMatchObject({ kind: "found", note: RUST, by: "name" });
  });

  it("an exact name beats a part: 'Rust' names the note called Rust, not every Rust note", () => {
    const rust = note("Rust.md", "T-rust");
    expect(findTopicByName("rust", [...NOTES, rust])).toMatchObject({ kind: "found", note: rust, by: "name" });
  });

  it("matches Unicode names however they are normalized (macOS file names are decomposed)", () => {
    const cafe = note("Caf\u0065\u0301 culture.md", "T-cafe");
    expect(findTopicByName("CAF\u00c9 culture", [cafe])).toMatchObject({ kind: "found", note: cafe });
  });

  it("3. a unique part of a name or alias", () => {
    expect(findTopicByName("owner", NOTES)).toMatchObject({ kind: "found", note: RUST, by: "part" });
    expect(findTopicByName("ALGEB", NOTES)).toMatchObject({ kind: "found", note: ALGEBRA, by: "part" });
    expect(findTopicByName("row", NOTES)).toMatchObject({ kind: "found", note: RUST, by: "part" }); // "borrowing"
  });

  it("a part that several topics' names hold is ambiguous, naming each", () => {
    const match = findTopicByName("rust", NOTES);
    expect(match).toEqual({ kind: "ambiguous", matches: [LIFETIMES, RUST] });
  });

  it("several notes with one palee_id are one topic, not an ambiguity", () => {
    const copy = note("Archive/Rust ownership.md", "T-rust-ownership");
    expect(findTopicByName("Rust ownership", [RUST, copy])).toMatchObject({ kind: "found" });
  });

  it("two topics with the same name are ambiguous", () => {
    const other = note("Old/Rust ownership.md", "T-rust-old");
    expect(findTopicByName("rust ownership", [RUST, other])).toEqual({ kind: "ambiguous", matches: [other, RUST] });
  });

  it("none: unknown, with the closest names first", () => {
    expect(findTopicByName("Rust ownershp", NOTES)).toEqual({ kind: "unknown" });
    expect(closestNotes("rust ownershp", NOTES).map((n) => n.topicId)).toEqual([
      "T-rust-ownership",
      "T-rust-lifetimes",
      "T-linear-algebra",
    ]);
  });
});

describe("topicIdForName: the ID, or the refusal", () => {
  it("records the palee_id, never the words", () => {
    expect(topicIdForName("rust ownership", NOTES)).toBe("T-rust-ownership");
  });

  it("ambiguous_topic (exit 2) names each candidate by ID and name, with matches for JSON", () => {
    const error = refusal(() => topicIdForName("rust", NOTES));
    expect(error).toBeInstanceOf(TopicLookupError);
    expect({ kind: error.kind, exit: error.exitCode }).toEqual({ kind: "ambiguous_topic", exit: 2 });
    expect(error.message).toContain("T-rust-ownership (Rust ownership");
    expect(error.message).toContain("T-rust-lifetimes (Rust lifetimes");
    expect((error as TopicLookupError).details).toEqual({
      matches: [
        { topic_id: "T-rust-lifetimes", name: "Rust lifetimes", path: "Topics/Rust lifetimes.md" },
        { topic_id: "T-rust-ownership", name: "Rust ownership", path: "Topics/Rust ownership.md" },
      ],
    });
  });

  it("unknown_topic (exit 2) names the closest names", () => {
    const error = refusal(() => topicIdForName("Rust ownershp", NOTES));
    expect({ kind: error.kind, exit: error.exitCode }).toEqual({ kind: "unknown_topic", exit: 2 });
    expect(error.message).toMatch(/no topic note is named "Rust ownershp" \(the closest: T-rust-ownership \(Rust/);
  });

  it("unknown_topic in a vault without topic notes says so", () => {
    expect(refusal(() => topicIdForName("Rust", [])).message).toContain("no note in the vault has a palee_id yet");
  });

  it("a broken ID that names no note is refused as an invalid ID", () => {
    const error = refusal(() => topicIdForName("T-a/b", NOTES));
    expect(error.kind).toBe("invalid_topic");
    expect(error.message).toMatch(/^invalid topic ID "T-a\/b"/);
  });

  it("a name only a note with a broken palee_id has is refused for that, naming the note", () => {
    const invalid = [note("notes/Go basics.md", "go basics")];
    const error = refusal(() => topicIdForName("go basics", NOTES, { invalid }));
    expect(error.kind).toBe("invalid_topic");
    expect(error.message).toBe(
      'the note notes/Go basics.md has palee_id "go basics", which is not a topic ID: correct its palee_id ' +
        '(use T- followed by letters, digits, ".", "_" or "-"); nothing was written',
    );
    expect(refusal(() => topicIdForName("nothing like it", NOTES, { invalid })).kind).toBe("unknown_topic");
  });

  it("says where a new topic begins: an ID on the CLI, the picker where a face begins none", () => {
    expect(refusal(() => topicIdForName("Graphs", NOTES)).message).toMatch(/; pass a topic ID \(T-…\) to start/);
    expect(refusal(() => topicIdForName("Graphs", NOTES, { newIds: false })).message).toMatch(
      /; add palee_id: T-… to a note's properties, or start a new topic once from the topic picker$/,
    );
  });

  it("topicNoteForName gives the note itself", () => {
    expect(topicNoteForName("Lifetimes", NOTES)).toBe(LIFETIMES);
  });
});

describe("an ID nothing has, where a face only reads it or begins no topic", () => {
  const known = ["T-rust-ownership", "T-sql"];

  it("unknownTopicIdText names a close ID", () => {
    expect(unknownTopicIdText("T-rust-ownershp", known)).toBe(
      "no session or topic note has T-rust-ownershp; did you mean T-rust-ownership?",
    );
    expect(unknownTopicIdText("T-graphs", known)).toBe("no session or topic note has T-graphs");
  });

  it("unknownTopicIdRefusal is unknown_topic (exit 2) with the close ID for JSON", () => {
    const error = unknownTopicIdRefusal("T-sqll", known);
    expect({ kind: error.kind, exit: error.exitCode, details: error.details }).toEqual({
      kind: "unknown_topic",
      exit: 2,
      details: { closest: [{ topic_id: "T-sql" }] },
    });
    expect(error.message).toMatch(/^no session or topic note has T-sqll \(did you mean T-sql\?\); add palee_id/);
  });
});

describe("new topic IDs: the did-you-mean notice", () => {
  const known = ["T-rust-ownership", "T-rust-lifetimes", "T-sql"];

  it("names a known ID one typo away", () => {
    expect(newTopicNotice("T-rust-ownershp", known)).toBe("new topic T-rust-ownershp; did you mean T-rust-ownership?");
    expect(closeTopicId("T-rust-onwership", known)).toBe("T-rust-ownership"); // two letters swapped
    expect(closeTopicId("T-rust-ownrshp", known)).toBe("T-rust-ownership"); // two away
    expect(closeTopicId("T-Rust-Ownership", known)).toBe("T-rust-ownership"); // case only
  });

  it("names none when nothing is that close, or the ID is short", () => {
    expect(newTopicNotice("T-haskell-monads", known)).toBe("new topic T-haskell-monads");
    expect(closeTopicId("T-rust-own", known)).toBeNull();
    expect(closeTopicId("T-sq", known)).toBeNull(); // 2 characters: any one-letter change would "match"
    expect(closeTopicId("T-sqk", ["T-sql"])).toBe("T-sql"); // 3 characters: one typo
    expect(closeTopicId("T-sqkk", ["T-sql"])).toBeNull();
  });

  it("prefers the nearest, then the first in order", () => {
    expect(closeTopicId("T-abcdefx", ["T-abcdexx", "T-abcdefg"])).toBe("T-abcdefg");
    expect(closeTopicId("T-abcdefx", ["T-abcdefz", "T-abcdefy"])).toBe("T-abcdefy");
  });
});

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and swaps, and stops past the limit", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("ab", "ba")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
    expect(editDistance("a", "abcdef", 2)).toBe(3);
  });
});
