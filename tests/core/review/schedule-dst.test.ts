/**
 * The schedule counts calendar days, never milliseconds (contract §4c): across the night Berlin's clocks go
 * back (2026-10-25, 03:00 CEST → 02:00 CET, a 25-hour day) and the night they go forward (2026-03-29, a
 * 23-hour day), a due day stays the date the ladder names. The offsets are the tz database's (Intl).
 */
import { dayOf, dayText } from "../../../src/core/time";
import { layoutFor } from "../../../src/core/records/layout";
import { PaleeSessions } from "../../../src/core/sessions";
import { FakeClock, harness } from "../../support/fakes";
import type { Harness } from "../../support/fakes";
import { study } from "../../support/review-vault";

function berlinOffset(at: number): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: "Europe/Berlin",
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  }).formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"));
  return Math.round((wall - Math.floor(at / 60_000) * 60_000) / 60_000);
}

/** A harness whose clock has Berlin's real offsets (the fake clock's is fixed). */
function berlinHarness(now: string): Harness {
  const h = harness({ at: now });
  const clock = Object.assign(new FakeClock(Date.parse(now)), { offsetMinutes: berlinOffset });
  const ports = { ...h.ports, clock };
  return { ...h, clock, ports, core: new PaleeSessions(ports, layoutFor("palee")) };
}

describe("the schedule across Berlin's clock changes", () => {
  it("the offsets are the real ones", () => {
    expect(berlinOffset(Date.parse("2026-10-24T12:00:00Z"))).toBe(120);
    expect(berlinOffset(Date.parse("2026-10-26T12:00:00Z"))).toBe(60);
  });

  it("a 7-day gap over the night clocks go back ends on the 7th calendar day", async () => {
    const h = berlinHarness("2026-11-20T12:00:00Z");
    // 23:30 local each evening: a millisecond count would slip a day at the change.
    study(
      h,
      { topic: "T-a", at: "2026-10-19T23:30", offset: "+02:00" },
      { topic: "T-a", at: "2026-10-20T23:30", offset: "+02:00" },
      { topic: "T-a", at: "2026-10-23T23:30", offset: "+02:00" },
    );
    const r = await h.core.next({ asOf: "2026-10-30" });
    expect(dayText(r.queue[0].schedule.due as number)).toBe("2026-10-30");
    expect(r.queue[0]).toMatchObject({ group: "due", overdueDays: 0 });
    expect((await h.core.next({ asOf: "2026-10-29" })).queue[0].group).toBe("upcoming");
  });

  it("an original tool's …Z note just after local midnight is on its local (Berlin) day", async () => {
    const h = berlinHarness("2026-11-20T12:00:00Z");
    // 23:30Z on 25 Oct is 00:30 CET on 26 Oct.
    study(h, { topic: "T-z", at: "2026-10-25T23:30", offset: "Z" });
    const r = await h.core.next({ asOf: "2026-10-26" });
    expect(r.queue[0].schedule.lastReviewed).toBe(dayOf("2026-10-26"));
    expect(dayText(r.queue[0].schedule.due as number)).toBe("2026-10-27");
  });

  it("a 1-day gap over the night clocks go forward is one calendar day", async () => {
    const h = berlinHarness("2026-04-20T12:00:00Z");
    study(h, { topic: "T-s", at: "2026-03-28T23:30", offset: "+01:00" });
    const r = await h.core.next({ asOf: "2026-03-29" });
    expect(r.queue[0]).toMatchObject({ group: "due", overdueDays: 0 });
  });
});
