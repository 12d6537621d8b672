/**
 * index.md read in place (src/core/records/index-text.ts, issue 22): each question it answers from the text equals the
 * answer from the index's lines as arrays, for any index renderIndexOfLines writes.
 */
import fc from "fast-check";
import {
  findEntry,
  firstEntry,
  indexEntries,
  knownIndexText,
  placeOf,
  readIndexText,
  topicEntries,
  withLine,
} from "../../src/core/records/index-text";
import { renderIndexOfLines } from "../../src/core/records/session-index";

const TOPICS = ["T-a", "T-b", "T-a (b)", "T-x]] - Topic: T-a ("];

/** Lines of distinct links, newest link first, as renderIndexLine writes them (a topic may hold odd words). */
const lines = fc
  .uniqueArray(fc.stringMatching(/^S-[0-9a-f]{1,6}$/), { maxLength: 25 })
  .chain((links) =>
    fc.tuple(
      fc.constant([...links].sort().reverse()),
      fc.array(fc.constantFrom(...TOPICS), { minLength: links.length, maxLength: links.length }),
    ),
  )
  .map(([links, topics]) =>
    links.map((link, i) => ({ link, line: `- [[${link}]] - Topic: ${topics[i]} (2026-08-14, ${i} min)` })),
  );

describe("index.md read in place", () => {
  it("finds every line, the first, a topic's lines, as the arrays of lines do", () => {
    fc.assert(
      fc.property(lines, fc.constantFrom(...TOPICS), (rows, topic) => {
        const text = renderIndexOfLines(
          rows.map((r) => r.line),
          "2026-08-14",
        );
        const index = readIndexText(text);
        expect(index).not.toBeNull();
        if (index === null) return;
        expect(knownIndexText(text)).toEqual(index);
        expect(index.count).toBe(rows.length);
        expect([...indexEntries(index)].map(({ link, line }) => ({ link, line }))).toEqual(rows);
        expect(firstEntry(index)?.line ?? null).toBe(rows[0]?.line ?? null);
        for (const row of rows) expect(findEntry(index, row.link)?.line).toBe(row.line);
        expect(findEntry(index, "S-zzzzzzz")).toBeNull();
        const mine = rows.filter((r) => r.line.startsWith(`- [[${r.link}]] - Topic: ${topic} (`));
        expect(topicEntries(index, topic).map((e) => e.line)).toEqual(mine.map((r) => r.line));
      }),
    );
  });

  it("inserts a line where its link sorts, exactly as rendering the lines again", () => {
    fc.assert(
      fc.property(lines, fc.stringMatching(/^S-[0-9a-f]{1,6}$/), (rows, link) => {
        fc.pre(!rows.some((r) => r.link === link));
        const index = readIndexText(
          renderIndexOfLines(
            rows.map((r) => r.line),
            "2026-08-14",
          ),
        );
        if (index === null) throw new Error("not read");
        const place = placeOf(index, link);
        const at = rows.findIndex((r) => !(r.link > link));
        const where = at < 0 ? rows.length : at;
        expect([place.before?.link ?? null, place.after?.link ?? null]).toEqual([
          rows[where - 1]?.link ?? null,
          rows[where]?.link ?? null,
        ]);
        const line = `- [[${link}]] - Topic: T-new (2026-08-15, 9 min)`;
        const expected = rows.map((r) => r.line);
        expected.splice(where, 0, line);
        expect(withLine(index, line, place.at, "2026-08-15")).toBe(renderIndexOfLines(expected, "2026-08-15"));
        expect(withLine(index, null, place.at, "2026-08-16")).toBe(
          renderIndexOfLines(
            rows.map((r) => r.line),
            "2026-08-16",
          ),
        );
      }),
    );
  });

  it("reads only the head of a text it is told is known, and refuses a head out of shape", () => {
    const text = renderIndexOfLines(["- [[S-1]] - Topic: T-a (2026-08-14, 5 min)"], "2026-08-14");
    expect(knownIndexText(text.replace("Total sessions: 1", "Total sessions: x"))).toBeNull();
    expect(readIndexText(text.replace("- [[S-1]]", "- [[S-1"))).toBeNull();
    expect(readIndexText(null)).toBeNull();
  });
});
