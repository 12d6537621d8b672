/**
 * dayOf by arithmetic (issue 38's speed) gives exactly what it gave through Date.UTC and dayText: every real
 * date's day number, and null for every text that is not one.
 */
import fc from "fast-check";
import { DAY_MS } from "../../../src/core/time/instants";
import { dayOf, dayText } from "../../../src/core/time/local-days";

/** dayOf as it was first written. */
function dayOfByDate(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const day = Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
  return dayText(day) === text.trim() ? day : null;
}

const digits = (n: number, width: number): string => String(n).padStart(width, "0");

describe("dayOf", () => {
  it("agrees with the Date way on dates of every shape, real or not", () => {
    const text = fc
      .tuple(
        fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1890, max: 2110 })),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.constantFrom("", " ", "x"),
      )
      .map(([y, m, d, pad]) => `${pad === "x" ? "" : pad}${digits(y, 4)}-${digits(m, 2)}-${digits(d, 2)}${pad}`);
    fc.assert(
      fc.property(text, (t) => {
        expect(dayOf(t)).toBe(dayOfByDate(t));
      }),
      { numRuns: 20_000 },
    );
  });

  it("reads every day from 1600 to 2400 back from its text", () => {
    const from = Math.floor(Date.UTC(1600, 0, 1) / DAY_MS);
    const to = Math.floor(Date.UTC(2400, 11, 31) / DAY_MS);
    for (let day = from; day <= to; day++) if (dayOf(dayText(day)) !== day) throw new Error(dayText(day));
    expect(dayOf("2024-02-29")).toBe(19782);
    expect([dayOf("2023-02-29"), dayOf("1900-02-29"), dayOf("2000-02-29")]).toEqual([null, null, 11016]);
    expect([dayOf("0099-01-01"), dayOf("0100-01-01")]).toEqual([null, dayOfByDate("0100-01-01")]);
  });
});
