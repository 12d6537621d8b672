import { PaleeError } from "../../src/core/errors";
import { newDraftId, newSessionId } from "../../src/core/records/ids";
import { normalizeTopic, validateNewTopicId } from "../../src/core/topics/ids";
import { renderTopic } from "../../src/core/topics/display";
import { SeededRandom } from "../support/fakes";

describe("IDs", () => {
  it("makes confirmed session IDs from the UTC start and 4 random hex digits", () => {
    const id = newSessionId(Date.parse("2026-08-14T06:30:00Z"), new SeededRandom(3));
    expect(id).toMatch(/^S-20260814T063000-[0-9a-f]{4}$/);
  });

  it("makes draft IDs from 8 random hex digits, differently each draw", () => {
    const random = new SeededRandom(9);
    const ids = new Set(Array.from({ length: 1000 }, () => newDraftId(random)));
    for (const id of ids) expect(id).toMatch(/^DRAFT-S-[0-9a-f]{8}$/);
    expect(ids.size).toBe(1000);
  });
});

describe("topic IDs", () => {
  it.each(["T-rust-ownership", "T-20260814T120000-abcd", "T-a", "T-A.b_c-d", `T-${"x".repeat(121)}`])(
    "accepts %s",
    (id) => {
      expect(validateNewTopicId(id)).toBe(id);
    },
  );

  it.each([
    "rust",
    "T-",
    "T--x",
    "t-lower",
    "T-../etc/passwd",
    "T-a/b",
    "T-a\\b",
    "T-[[link]]",
    "T-a|b",
    "T-a#b",
    "T-a b",
    "T-a\nb",
    `T-${"x".repeat(122)}`,
  ])("refuses %j with a usage error", (id) => {
    let error: unknown;
    try {
      validateNewTopicId(id);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PaleeError);
    expect((error as PaleeError).exitCode).toBe(2);
    expect((error as PaleeError).message).toContain("invalid topic ID");
  });

  it.each([
    ["(none)", null],
    [" (NONE) ", null],
    ["", null],
    ["   ", null],
    [null, null],
    [42, null],
    [" T-a ", "T-a"],
    ["git_rebase", "git_rebase"],
  ])("normalizes %j to %j", (value, expected) => {
    expect(normalizeTopic(value)).toBe(expected);
  });

  it("renders a legacy or hostile topic so it cannot break the Markdown around it", () => {
    expect(renderTopic("T-rust-ownership")).toBe("T-rust-ownership");
    expect(renderTopic("git_rebase")).toBe("git\\_rebase");
    const hostile = renderTopic("x]] [[evil|alias]]\n# heading <img src=x onerror=alert(1)>");
    expect(hostile).not.toMatch(/(^|[^\\])\[\[/);
    expect(hostile).not.toMatch(/(^|[^\\])[|<>#]/);
    expect(hostile).not.toContain("\n");
  });
});
