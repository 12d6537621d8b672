/**
 * dayOf by arithmetic (every session's day goes through it) against the reading it replaced: Date.UTC, then the
 * day written back as text and compared. Same answer for every text, real dates or not.
 */
import fc from "fast-check";
import { dayOf, dayText } from "../../../src/core/time/local-days";
import { DAY_MS } from "../../../src/core/time/instants";

function byDate(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const day = Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
  return dayText(day) === text.trim() ? day : null;
}

const digits = (n: number, width: number): string => String(n).padStart(width, "0");

describe("dayOf", () => {
  it("reads the worked days", () => {
    expect(dayOf("1970-01-01")).toBe(0);
    expect(dayOf("2026-12-05")).toBe(20792);
    expect(dayOf("2024-02-29")).toBe(19782);
    expect(dayOf("2023-02-29")).toBeNull();
    expect(dayOf("1900-02-29")).toBeNull();
    expect(dayOf("2000-02-29")).toBe(11016);
    expect(dayOf("0024-01-01")).toBeNull();
    expect(dayOf("2026-13-01")).toBeNull();
    expect(dayOf("2026-00-10")).toBeNull();
    expect(dayOf(" 2026-12-05 ")).toBe(20792);
    expect(dayOf("2026-12-5")).toBeNull();
  });

  it("answers as the Date-based reading for any year, month and day written with four and two digits", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const text = `${digits(y, 4)}-${digits(m, 2)}-${digits(d, 2)}`;
          expect(dayOf(text)).toBe(byDate(text));
        },
      ),
      { numRuns: 20000 },
    );
  });

  it("gives back the day dayText wrote, for every day of 1900–2200", () => {
    const from = byDate("1900-01-01") as number;
    const to = byDate("2200-12-31") as number;
    for (let day = from; day <= to; day++) expect(dayOf(dayText(day))).toBe(day);
  });
});
