/** One line of index.md (src/core/records/index-line.ts): written and read back by the same module. */
import fc from "fast-check";
import { indexNamesTopic, parseIndexLine, renderIndexLine, topicTail } from "../../src/core/records/index-line";
import type { ConfirmedSession } from "../../src/core/records/records";

const session = (topicId: string, minutes: number): ConfirmedSession =>
  ({
    path: "palee/sessions/S-20260814T120000-ab12.md",
    topicId,
    startedAt: "2026-08-14T14:02:00+02:00",
    durationMinutes: minutes,
  }) as ConfirmedSession;

describe("index.md's line", () => {
  it("reads back what it writes: link, topic as rendered, day, minutes", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^T-[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/), fc.nat(10_000), (topicId, minutes) => {
        const line = renderIndexLine(session(topicId, minutes));
        expect(parseIndexLine(line)).toEqual({
          link: "S-20260814T120000-ab12",
          topic: topicId,
          date: "2026-08-14",
          minutes,
        });
        expect(line).toContain(topicTail(topicId));
        expect(indexNamesTopic(`${line}\n`, topicId)).toBe(true);
      }),
    );
  });

  it("reads a hostile legacy topic as it was rendered, escaped", () => {
    const line = renderIndexLine(session("T-x]] (2026", 5));
    expect(parseIndexLine(line)?.topic).toBe("T-x\\]\\] \\(2026");
  });

  it("is null for a line it could not have written", () => {
    expect(parseIndexLine("- [[S-a]] - Topic: T-x (2026-08-14, 5 minutes)")).toBeNull();
    expect(parseIndexLine("my own note")).toBeNull();
  });
});
