import fc from "fast-check";
import { dayChain, stateOn } from "../../../src/core/goals";
import { dayOf, dayText } from "../../../src/core/time";
import { daysFrom, logOf, on, plan } from "./builders";

/** Contract §4c acceptance example 12: every day of August 2026 but the 3rd, 10th and 17th, to the 20th. */
const august = () =>
  daysFrom("2026-08-01", "2026-08-20")
    .filter((d) => !["2026-08-03", "2026-08-10", "2026-08-17"].includes(d))
    .map((d) => on(d, 30));

const stateOf = (chain: ReturnType<typeof dayChain>, date: string) => stateOn(chain, dayOf(date) as number);

describe("the day chain (example 12)", () => {
  it("freezes the first two misses of the month, oldest first", () => {
    const p = plan({ freezes_per_month: 2 });
    const chain = dayChain(p, logOf(august(), "2026-08-20", p));
    expect(stateOf(chain, "2026-08-03")).toBe("frozen");
    expect(stateOf(chain, "2026-08-10")).toBe("frozen");
    expect(stateOf(chain, "2026-08-17")).toBe("missed");
    expect(stateOf(chain, "2026-08-20")).toBe("studied");
    expect(stateOf(chain, "2026-07-31")).toBe("before_start");
    expect({ current: chain.current, longest: chain.longest, freezesLeft: chain.freezesLeft }).toEqual({
      current: 3,
      longest: 14,
      freezesLeft: 0,
    });
  });

  it("never lets a weekend without study break it when weekends are rest days", () => {
    const weekdays = daysFrom("2026-08-03", "2026-08-20")
      .filter((d) => ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()))
      .map((d) => on(d, 30));
    const rest = plan({ freezes_per_month: 0, rest_days: ["sat", "sun"] });
    const chain = dayChain(rest, logOf(weekdays, "2026-08-20", rest));
    expect(stateOf(chain, "2026-08-08")).toBe("rest");
    expect(stateOf(chain, "2026-08-09")).toBe("rest");
    expect([chain.current, chain.longest]).toEqual([14, 14]);
    const strict = plan({ freezes_per_month: 0 });
    const without = dayChain(strict, logOf(weekdays, "2026-08-20", strict));
    expect(stateOf(without, "2026-08-08")).toBe("missed");
    expect([without.current, without.longest]).toEqual([4, 5]);
  });

  it("leaves as-of pending until it is studied, and passes over it", () => {
    const p = plan({ freezes_per_month: 0 });
    const chain = dayChain(p, logOf([on("2026-08-01", 30), on("2026-08-02", 30)], "2026-08-03", p));
    expect(stateOf(chain, "2026-08-03")).toBe("pending");
    expect(chain.current).toBe(2);
  });

  it("passes over paused days and does not count a day below min_minutes as studied", () => {
    const p = plan({ freezes_per_month: 0, pauses: ["2026-08-03/2026-08-05"], min_minutes: 10 });
    const sessions = [on("2026-08-01", 30), on("2026-08-02", 30), on("2026-08-06", 30), on("2026-08-07", 9)];
    const chain = dayChain(p, logOf(sessions, "2026-08-08", p));
    expect(chain.states).toEqual(["studied", "studied", "paused", "paused", "paused", "studied", "missed", "pending"]);
    expect([chain.current, chain.longest]).toEqual([0, 3]);
  });

  it("starts the freezes again each calendar month", () => {
    const p = plan({ freezes_per_month: 1 });
    const sessions = [on("2026-07-29", 30), on("2026-08-02", 30)];
    const chain = dayChain(p, logOf(sessions, "2026-08-04", p));
    // 30 Jul frozen, 31 Jul missed; 1 Aug frozen (a new month), 3 Aug missed.
    expect(chain.states).toEqual(["studied", "frozen", "missed", "frozen", "studied", "missed", "pending"]);
    expect(chain.freezesLeft).toBe(0);
  });
});

describe("the day chain's rules hold for any history (property)", () => {
  it("has one state per day, at most the monthly freezes, and current ≤ longest", () => {
    const history = fc.record({
      studied: fc.uniqueArray(fc.integer({ min: 0, max: 120 }), { maxLength: 80 }),
      asOf: fc.integer({ min: 0, max: 130 }),
      freezes: fc.integer({ min: 0, max: 10 }),
      rest: fc.subarray(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]),
    });
    fc.assert(
      fc.property(history, ({ studied, asOf, freezes, rest }) => {
        const base = dayOf("2026-06-01") as number;
        const sessions = studied.map((d) => on(dayText(base + d), 20));
        const p = plan({ freezes_per_month: freezes, rest_days: rest });
        const log = logOf(sessions, dayText(base + asOf), p);
        const chain = dayChain(p, log);
        const counted = studied.filter((d) => d <= asOf);
        expect(chain.states.length).toBe(counted.length === 0 ? 0 : asOf - Math.min(...counted) + 1);
        expect(chain.states.filter((s) => s === "studied").length).toBe(counted.length);
        expect(chain.current).toBeLessThanOrEqual(chain.longest);
        const perMonth = new Map<string, number>();
        chain.states.forEach((s, i) => {
          const month = dayText(chain.from + i).slice(0, 7);
          if (s === "frozen") perMonth.set(month, (perMonth.get(month) ?? 0) + 1);
          // A missed day comes only once the month's freezes are used up.
          if (s === "missed") expect(perMonth.get(month) ?? 0).toBe(freezes);
        });
        for (const n of perMonth.values()) expect(n).toBeLessThanOrEqual(freezes);
      }),
    );
  });
});
