/**
 * index.md read back (parseIndex): exactly what renderIndexOfLines writes, with any date, and nothing else —
 * the incremental index (operations/incremental-index.ts) trusts an index only when this reads it.
 */
import fc from "fast-check";
import type { ConfirmedSession } from "../../src/core/records/records";
import { parseIndex } from "../../src/core/records/index-text";
import { joinedAfter, renderIndexOfLines } from "../../src/core/records/session-index";

const line = fc
  .tuple(fc.stringMatching(/^S-[0-9A-Za-z-]{1,20}$/), fc.stringMatching(/^[^\n\]]{0,30}$/))
  .map(([link, rest]) => `- [[${link}]] - Topic: T-x (2026-08-14, ${rest.length} min)${rest}`);

describe("parseIndex", () => {
  it("reads back every index renderIndexOfLines writes: its lines and their links", () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 20 }),
        fc.date({ min: new Date(2000, 0, 1), max: new Date(2099, 0, 1), noInvalidDate: true }),
        (lines, when) => {
          const date = when.toISOString().slice(0, 10);
          const parsed = parseIndex(renderIndexOfLines(lines, date));
          expect(parsed?.lines).toEqual(lines);
          expect(parsed?.links).toEqual(lines.map((l) => l.slice(4, l.indexOf("]]"))));
        },
      ),
    );
  });

  const two = ["- [[S-a]] - Topic: T-x (2026-08-14, 5 min)", "- [[S-b]] - Topic: T-x (2026-08-13, 6 min)"];
  const text = renderIndexOfLines(two, "2026-08-14");
  it.each([
    ["a wrong total", text.replace("Total sessions: 2", "Total sessions: 3")],
    ["a total with a leading zero", text.replace("Total sessions: 2", "Total sessions: 02")],
    ["a line that is not a session's", text.replace(two[1], "my own note")],
    ["a blank line among the sessions", text.replace(`${two[0]}\n`, `${two[0]}\n\n`)],
    ["text after the list", `${text}more\n`],
    ["no final line break", text.slice(0, -1)],
    ["another title", text.replace("# PALEE session index", "# My sessions")],
    ["another schema", text.replace("palee_schema: 1", "palee_schema: 2")],
    ["an empty index with a line", `${renderIndexOfLines([], "2026-08-14")}${two[0]}\n`],
  ])("refuses %s", (_, edited) => {
    expect(parseIndex(edited)).toBeNull();
  });

  it("reads an empty index, and refuses none at all", () => {
    expect(parseIndex(renderIndexOfLines([], "2026-08-14"))).toEqual({ lines: [], links: [] });
    expect(parseIndex(null)).toBeNull();
  });
});

describe("joinedAfter (the plugin's index after one end)", () => {
  const record = (id: string, minutes = 30): ConfirmedSession =>
    ({ sessionId: id, path: `palee/sessions/${id}.md`, durationMinutes: minutes }) as ConfirmedSession;
  const lineOf = (s: ConfirmedSession): string => `- [[${s.sessionId}]] - ${s.durationMinutes} min`;

  it("splices new lines into the last text exactly as joining every line would", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 30 }), (isNew) => {
        const list = isNew.map((_, i) => record(`S-${i}`));
        const before = list.filter((_, i) => !isNew[i]);
        const joined = before.map(lineOf).join("\n");
        expect(joinedAfter(before, joined, list, lineOf)).toBe(list.map(lineOf).join("\n"));
      }),
      { numRuns: 1000 },
    );
  });

  it("declines a list that lost, reordered or changed one of the earlier records", () => {
    const [a, b, c] = ["S-a", "S-b", "S-c"].map((id) => record(id));
    const joined = [a, b].map(lineOf).join("\n");
    expect(joinedAfter([a, b], joined, [a], lineOf)).toBeNull();
    expect(joinedAfter([a, b], joined, [b, a], lineOf)).toBeNull();
    expect(joinedAfter([a, b], joined, [a, record("S-b", 45)], lineOf)).toBeNull();
    expect(joinedAfter([a, b], joined, [c, a, b], lineOf)).toBe([c, a, b].map(lineOf).join("\n"));
  });

  it("takes another record of the same note with the same line (a scan's record of a note just written)", () => {
    const [a, b, c] = ["S-a", "S-b", "S-c"].map((id) => record(id));
    const joined = [a, b].map(lineOf).join("\n");
    expect(joinedAfter([a, b], joined, [c, record("S-a"), b], lineOf)).toBe([c, a, b].map(lineOf).join("\n"));
  });
});
