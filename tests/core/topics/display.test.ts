/** A topic's display name and its link (src/core/topics/display.ts, contract §5 version 4 "topics by name"). */
import { topicNamer, topicNoteMarkdown, topicNoteTarget } from "../../../src/core/topics/display";
import type { TopicNote } from "../../../src/core/topics/note";

const note = (path: string, topicId: string): TopicNote => ({
  path,
  name: path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, ""),
  aliases: [],
  topicId,
});

describe("topicNamer", () => {
  const name = topicNamer([
    note("Topics/Rust ownership.md", "T-rust"),
    note("A/Zed.md", "T-z"),
    note("A/Alpha.md", "T-z"),
  ]);

  it("names a topic by the note that has its palee_id (the first by path when several do)", () => {
    expect(name("T-rust")).toBe("Rust ownership");
    expect(name("T-z")).toBe("Alpha");
  });

  it("prefers the note over a link a session recorded (a renamed note shows its new name)", () => {
    expect(name("T-rust", "[[Old name]]")).toBe("Rust ownership");
  });

  it("without a note: the recorded link's note name, else the ID", () => {
    expect(name("T-gone", "[[Notes/Gone topic|x]]")).toBe("Gone topic");
    expect(name("T-gone")).toBe("T-gone");
    expect(name("T-gone", null)).toBe("T-gone");
  });
});

describe("topicNoteTarget", () => {
  it.each([
    ["[[Topics/Rust ownership|Rust]]", "Topics/Rust ownership"],
    ["[[Rust#Moves]]", "Rust"],
    ["[[ ]]", null],
    ["Rust", null],
    [null, null],
  ])("%j → %j", (link, target) => expect(topicNoteTarget(link)).toBe(target));
});

describe("topicNoteMarkdown", () => {
  it("links the note showing its name, and only the name when the link text is it", () => {
    expect(topicNoteMarkdown("Topics/Rust ownership", "Rust ownership")).toBe(
      "[[Topics/Rust ownership|Rust ownership]]",
    );
    expect(topicNoteMarkdown("Rust ownership", "Rust ownership")).toBe("[[Rust ownership]]");
  });

  it.each([
    ["a]]b", "x"],
    ["a|b", "x"],
    ["ok", "x]]\n## y"],
    ["ok", "a#b"],
    [" ", "x"],
  ])("refuses what a link cannot hold safely: %j %j", (linktext, name) => {
    expect(topicNoteMarkdown(linktext, name)).toBeNull();
  });
});
