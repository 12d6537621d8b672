import fc from "fast-check";
import { CORE_SCHEMA, load } from "js-yaml";
import { renderFrontmatter } from "../../src/core/records/frontmatter";
import type { FieldValue } from "../../src/core/records/frontmatter";
import { parseSimpleFrontmatter } from "../../src/core/records/simple-yaml";

/** js-yaml's reading of a block, or "error". The fast path must agree whenever it answers at all. */
function reference(yaml: string): unknown {
  try {
    return load(yaml, { schema: CORE_SCHEMA });
  } catch {
    return "error";
  }
}

function blockOf(entries: Array<[string, FieldValue]>): string {
  return renderFrontmatter(entries).slice(4, -4); // without the fences
}

const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/);
const tricky = fc.constantFrom(
  "true",
  "False",
  "NULL",
  "~",
  "yes",
  "no",
  "on",
  "Off",
  "y",
  "N",
  "null",
  "0",
  "-0",
  "+1",
  "1e3",
  "0x1f",
  ".inf",
  "-.5",
  "T-rust-ownership",
  "2026-08-14T12:00:00+05:30",
  "a: b",
  "# c",
  "- d",
  "[e]",
  "{f}",
  "'g'",
  '"h"',
  "i\\j",
  "",
  " lead",
  "trail ",
  "\u2028",
  "\u0085",
  "\ufeff",
  "🦀",
  "x\ny",
  "\t",
);
const value: fc.Arbitrary<FieldValue> = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  tricky,
  fc.integer(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), tricky), { maxLength: 3 }),
);

describe("the fast frontmatter reader", () => {
  it("reads what the core writes exactly as js-yaml does", () => {
    let answered = 0;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, minLength: 1, maxLength: 8 }),
        (entries) => {
          const yaml = blockOf(entries);
          const fast = parseSimpleFrontmatter(yaml);
          if (fast === null) return;
          answered++;
          expect(fast).toEqual(reference(yaml));
        },
      ),
      { numRuns: 2000 },
    );
    // The comparison must actually have run: most generated blocks are ones the fast path answers.
    expect(answered).toBeGreaterThan(300);
  });

  it("answers for the frontmatter of real session notes", () => {
    const yaml = blockOf([
      ["palee_schema", 1],
      ["session_id", "S-20260814T063000-abcd"],
      ["topic_id", "T-rust-ownership"],
      ["started_at", "2026-08-14T12:00:00+05:30"],
      ["ended_at", null],
      ["duration_minutes", 45],
      ["absorbed_drafts", ["DRAFT-S-0123abcd", "DRAFT-S-89abcdef"]],
      ["empty", []],
      ["device", "Ana's phone"],
    ]);
    expect(parseSimpleFrontmatter(yaml)).toEqual(reference(yaml));
    expect(parseSimpleFrontmatter(yaml)).not.toBeNull();
  });

  it("never disagrees with js-yaml on arbitrary lines", () => {
    // Mostly lines of the shapes the fast path accepts, so that it answers often; the rest is noise.
    const simpleValue = fc.oneof(
      tricky,
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9._-]{0,8}$/),
      fc.integer().map(String),
      fc.string().map((v) => JSON.stringify(v)),
    );
    const line = fc.oneof(
      { arbitrary: fc.tuple(key, simpleValue).map(([k, v]) => `${k}: ${v}`), weight: 8 },
      { arbitrary: simpleValue.map((v) => `  - ${v}`), weight: 2 },
      {
        arbitrary: fc
          .tuple(key, fc.constantFrom(":", ":  ", "::", " :"), fc.oneof(fc.string(), tricky))
          .map(([k, sep, v]) => `${k}${sep}${v}`),
        weight: 1,
      },
      { arbitrary: fc.string(), weight: 1 },
    );
    let answered = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
        const yaml = lines.map((l) => `${l}\n`).join("");
        const fast = parseSimpleFrontmatter(yaml);
        if (fast === null) return;
        answered++;
        expect(fast).toEqual(reference(yaml));
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(300);
  });

  it.each([
    ["an empty block", ""],
    ["a key without value", "a:\nb: 1\n"],
    ["duplicate keys", "a: 1\na: 2\n"],
    ["a comment", "# note\na: 1\n"],
    ["CRLF", "a: 1\r\n"],
    ["a prototype key", "__proto__: x\n"],
    ["escapes", 'a: "x\\ny"\n'],
    ["a missing space", "a:b\n"],
  ])("leaves %s to js-yaml", (_name, yaml) => {
    expect(parseSimpleFrontmatter(yaml)).toBeNull();
  });
});
