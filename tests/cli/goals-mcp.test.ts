/** `palee mcp`'s goals, set_goal and year (contract §5 version 4): the CLI's JSON documents, the same bytes. */
import * as fs from "node:fs";
import * as path from "node:path";
import { call, servedPerTest } from "./mcp-support";
import { makeVault, palee, readText, writeConfirmed, writeFile } from "./support";

jest.setTimeout(30_000);

const serve = servedPerTest();

function vaultWithGoal(): string {
  const vault = makeVault();
  writeFile(
    vault,
    "palee/plan.md",
    "---\npalee_schema: 1\ngoals:\n  - from: 2026-07-06\n    minutes_per_week: 300\n---\n",
  );
  const days: Array<[string, number]> = [
    ["06", 120],
    ["08", 120],
    ["13", 160],
    ["17", 160],
    ["21", 120],
  ];
  days.forEach(([d, minutes], i) =>
    writeConfirmed(vault, {
      id: `S-202607${d}T100000-000${i}`,
      topic: "T-a",
      startedAt: `2026-07-${d}T10:00:00+00:00`,
      endedAt: `2026-07-${d}T13:00:00+00:00`,
      duration: minutes,
    }),
  );
  return vault;
}

describe("palee mcp: goals and the year (example 14)", () => {
  it("gives the CLI's goal and year documents, key for key, through goals and year", async () => {
    const vault = vaultWithGoal();
    const { client } = await serve(vault);
    const goals = await call(client, "goals", { as_of: "2026-07-22" });
    expect(goals.isError).toBe(false);
    expect(JSON.stringify(goals.doc)).toBe(
      JSON.stringify(palee(vault, ["goal", "--json", "--as-of", "2026-07-22"]).json()),
    );
    expect(goals.doc).toMatchObject({ status: "goals", week_streak: { current: 1, longest: 1 } });
    const year = await call(client, "year", { as_of: "2026-07-22" });
    expect(JSON.stringify(year.doc)).toBe(
      JSON.stringify(palee(vault, ["year", "--json", "--as-of", "2026-07-22"]).json()),
    );
    const stats = await call(client, "stats", { as_of: "2026-07-22" });
    expect(stats.doc).toMatchObject({ week: { from: "2026-07-20", minutes: 120, target_minutes: 300 } });
  });

  it("sets a goal with set_goal, and refuses a bad one with its code, writing nothing", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    for (const [args, code] of [
      [{ minutes_per_week: -5 }, "invalid_goal"],
      [{ minutes_per_week: 2.5 }, "invalid_goal"],
      [{ rest_days: ["funday"] }, "invalid_goal"],
      [{ pause: "2026-09-10/2026-09-01" }, "invalid_date"],
      [{ review: false }, "topic_required"],
    ] as const) {
      const refused = await call(client, "set_goal", args);
      expect([refused.isError, refused.doc.code]).toEqual([true, code]);
    }
    expect(fs.existsSync(path.join(vault, "palee/plan.md"))).toBe(false);
    const set = await call(client, "set_goal", {
      topic: "T-a",
      minutes_per_week: 120,
      review: false,
      rest_days: ["sun"],
    });
    expect(set.isError).toBe(false);
    expect(set.doc).toMatchObject({
      status: "goal_set",
      plan: {
        topics: { "T-a": { minutes_per_week: 120, sessions_per_week: null, review: false } },
        rest_days: ["sun"],
      },
      topics: [{ topic_id: "T-a", target_minutes: 120 }],
    });
    expect(readText(vault, "palee/plan.md")).toContain(
      "topics:\n  T-a:\n    minutes_per_week: 120\n    review: false\n",
    );
  });
});
