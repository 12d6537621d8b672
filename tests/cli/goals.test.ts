/** CLI end-to-end: `palee session goal`, `year` and the goal parts of `stats` (contract §4c, §5). */
import * as fs from "node:fs";
import * as path from "node:path";
import { lockVault } from "../../src/cli/lock";
import {
  cleanupVaults,
  expectCleanError,
  lines,
  makeVault,
  palee,
  readText,
  testCacheDir,
  writeConfirmed,
  writeFile,
} from "./support";

afterEach(cleanupVaults);

const PLAN = "palee/plan.md";

/** Every file under the vault, relative, sorted. */
function files(vault: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(vault, dir), { withFileTypes: true })) {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else found.push(rel);
    }
  };
  walk("");
  return found.sort();
}

let n = 0;
function study(
  vault: string,
  date: string,
  minutes: number,
  topic = "T-a",
  time = "10:00:00",
  offset = "+00:00",
): void {
  const id = `S-${date.replace(/-/g, "")}T${time.replace(/:/g, "")}-${String(++n % 10000).padStart(4, "0")}`;
  const start = Date.parse(`${date}T${time}${offset}`);
  writeConfirmed(vault, {
    id,
    topic,
    startedAt: `${date}T${time}${offset}`,
    endedAt: new Date(start + minutes * 60_000).toISOString().replace(".000Z", "+00:00"),
    duration: minutes,
  });
}

const plan = (yaml: string): string => `---\npalee_schema: 1\ntype: study_plan\n${yaml}---\nMy plan.\n`;

describe("goal refusals (example 8)", () => {
  it.each([
    [["--minutes-per-week", "-5"], "invalid_goal"],
    [["--minutes-per-week", "2.5"], "invalid_goal"],
    [["--minutes-per-week", "20000"], "invalid_goal"],
    [["--rest-days", "funday"], "invalid_goal"],
    [["--pause", "2026-09-10/2026-09-01"], "invalid_date"],
    [["--pause", "2026-01-01/2027-02-04"], "invalid_date"],
    [["--unpause", "2026-09-01"], "invalid_date"],
    [["--review", "off"], "topic_required"],
    [["--as-of", "2999-01-01"], "invalid_date"],
  ])("refuses goal %j: exit 2 %s, one line, no plan.md", (args, code) => {
    const vault = makeVault();
    const run = palee(vault, ["goal", ...args, "--json"]);
    expectCleanError(run, 2, { json: true, code });
    expect(fs.existsSync(path.join(vault, PLAN))).toBe(false);
  });
});

describe("reads write nothing (example 9)", () => {
  it("creates no file on a vault without plan.md: goal, year, stats, context", () => {
    const vault = makeVault();
    study(vault, "2026-07-20", 30);
    const before = files(vault);
    for (const args of [["goal"], ["year"], ["stats"], ["context", "--topic", "T-a"], ["goal", "--json"]]) {
      const run = palee(vault, [...args, "--as-of", "2026-07-22"]);
      expect([args, run.status, run.stderr]).toEqual([args, 0, ""]);
    }
    expect(files(vault)).toEqual(before);
  });

  it("reads a corrupt plan.md with a warning naming it, and refuses to write it (plan_unreadable)", () => {
    const vault = makeVault();
    const corrupt = "---\ngoals: [\n---\nMy goals.\n";
    writeFile(vault, PLAN, corrupt);
    const read = palee(vault, ["goal", "--json", "--as-of", "2026-07-22"]);
    expect(read.status).toBe(0);
    expect((read.json().warnings as string[])[0]).toMatch(/^palee\/plan\.md: frontmatter YAML does not parse/);
    expect(read.stderr).toContain("palee/plan.md: frontmatter YAML does not parse");
    const year = palee(vault, ["year", "--json", "--as-of", "2026-07-22"]);
    expect(year.json().warnings).toEqual(read.json().warnings);
    const write = palee(vault, ["goal", "--minutes-per-week", "300", "--json"]);
    expectCleanError(write, 2, { json: true, code: "plan_unreadable" });
    expect(readText(vault, PLAN)).toBe(corrupt);
  });
});

describe("weeks and the week streak (example 10)", () => {
  it("judges 290 missed, 320 met, the current week in progress; streak 1, longest 1", () => {
    const vault = makeVault();
    writeFile(vault, PLAN, plan("goals:\n  - from: 2026-07-06\n    minutes_per_week: 300\n"));
    for (const [date, minutes] of [
      ["2026-07-06", 145],
      ["2026-07-08", 145],
      ["2026-07-13", 320],
      ["2026-07-22", 100],
    ]) {
      study(vault, date as string, minutes as number);
    }
    const doc = palee(vault, ["goal", "--json", "--as-of", "2026-07-22"]).json();
    expect(doc).toMatchObject({
      status: "goals",
      as_of: "2026-07-22",
      week: {
        from: "2026-07-20",
        to: "2026-07-26",
        minutes: 100,
        sessions: 1,
        target_minutes: 300,
        target_sessions: null,
        status: "in_progress",
      },
      topics: [],
      week_streak: { current: 1, longest: 1 },
      warnings: [],
    });
    const weeks = (
      palee(vault, ["year", "--json", "--as-of", "2026-07-22"]).json().weeks as Array<{
        from: string;
        status: string;
        minutes: number;
      }>
    ).slice(-3);
    expect(weeks.map((w) => [w.from, w.minutes, w.status])).toEqual([
      ["2026-07-06", 290, "missed"],
      ["2026-07-13", 320, "met"],
      ["2026-07-20", 100, "in_progress"],
    ]);
    const text = palee(vault, ["goal", "--as-of", "2026-07-22"]);
    expect(lines(text.stdout)).toEqual([
      "This week (2026-07-20 to 2026-07-26, as of 2026-07-22)",
      "  overall: 100 of 300 min (in progress)",
      "Week streak: 1 week met in a row, longest 1",
    ]);
    const stats = palee(vault, ["stats", "--as-of", "2026-07-22", "--json"]).json();
    expect(stats).toMatchObject({
      total_minutes: 710,
      streak: { current: 1, longest: 1 },
      week: { from: "2026-07-20", minutes: 100, target_minutes: 300, status: "in_progress" },
      week_streak: { current: 1, longest: 1 },
      warnings: [],
    });
    expect(palee(vault, ["stats", "--as-of", "2026-07-22"]).stdout).toContain(
      "  This week: 100 of 300 min; 1 week met in a row\n",
    );
  });
});

describe("the year (examples 12 and 13)", () => {
  function august(vault: string): void {
    for (let d = 1; d <= 20; d++) {
      if ([3, 10, 17].includes(d)) continue;
      study(vault, `2026-08-${String(d).padStart(2, "0")}`, 30);
    }
  }

  it("freezes the 3rd and 10th of August, the 17th is missed; chain 3, longest 14", () => {
    const vault = makeVault();
    august(vault);
    const doc = palee(vault, ["year", "--json", "--as-of", "2026-08-20"]).json();
    const state = (date: string) =>
      (doc.days as Array<{ date: string; state: string }>).find((d) => d.date === date)?.state;
    expect([state("2026-08-03"), state("2026-08-10"), state("2026-08-17"), state("2026-08-21")]).toEqual([
      "frozen",
      "frozen",
      "missed",
      "future",
    ]);
    expect(doc.day_chain).toEqual({ current: 3, longest: 14, freezes_left: 0 });
    expect(doc).toMatchObject({ as_of: "2026-08-20", from: "2025-08-18", to: "2026-08-23", daily_target: 30 });
    expect(Object.keys(doc)).toEqual([
      "as_of",
      "from",
      "to",
      "daily_target",
      "days",
      "weeks",
      "week_streak",
      "day_chain",
      "study_days",
      "weeks_met",
      "weeks_judged",
      "warnings",
    ]);
    expect(doc.study_days).toEqual({ last_30: 17, last_365: 17 });
  });

  it("draws the grid: month labels, 7 rows, week marks, and frozen days as *", () => {
    const vault = makeVault();
    august(vault);
    const out = lines(palee(vault, ["year", "--as-of", "2026-08-20"]).stdout);
    expect(out[0]).toMatch(/^ {4}.*Sep .*Aug$/);
    expect(out.slice(1, 8).map((l) => l.slice(0, 4))).toEqual(["Mon ", "Tue ", "Wed ", "Thu ", "Fri ", "Sat ", "Sun "]);
    // August 2026 begins on a Saturday; 30 min against 30 is level 3 (▓); the 17th, missed, looks empty.
    expect(out.slice(1, 8).map((l) => l.slice(-4))).toEqual([" ** ", " ▓▓▓", " ▓▓▓", " ▓▓▓", " ▓▓ ", "▓▓▓ ", "▓▓▓ "]);
    expect(out[8]).toBe(`${" ".repeat(4 + 49)}✓✓✓✓`);
    expect(out.slice(10)).toEqual([
      "2025-08-18 to 2026-08-23, as of 2026-08-20",
      "Studied 17 of the last 30 days, 17 of the last 365.",
      "Weeks met: 4 of 4; week streak 4, longest 4.",
      "Day chain: 3 days, longest 14; 0 freezes left this month.",
      "Daily target 30 min: ░ under half, ▒ under it, ▓ up to twice it, █ more; - rest, = paused, * frozen.",
    ]);
  });

  it("gives levels against 43 min a day for a 300-minute goal", () => {
    const vault = makeVault();
    writeFile(vault, PLAN, plan("goals:\n  - from: 2026-07-06\n    minutes_per_week: 300\n"));
    for (const [date, minutes] of [
      ["2026-07-06", 20],
      ["2026-07-07", 30],
      ["2026-07-08", 43],
      ["2026-07-09", 86],
    ]) {
      study(vault, date as string, minutes as number);
    }
    const doc = palee(vault, ["year", "--json", "--as-of", "2026-07-10"]).json();
    const days = (doc.days as Array<{ date: string; level: number }>).filter((d) => d.date >= "2026-07-06");
    expect(days.map((d) => d.level)).toEqual([1, 2, 3, 4, 0, 0, 0]);
    expect(doc.daily_target).toBe(43);
  });

  it("answers the same bytes on two runs (example 14), and in New York the same days for recorded offsets", () => {
    const vault = makeVault();
    august(vault);
    const a = palee(vault, ["year", "--json", "--as-of", "2026-08-20"]).stdout;
    expect(palee(vault, ["year", "--json", "--as-of", "2026-08-20"]).stdout).toBe(a);
    expect(palee(vault, ["year", "--json", "--as-of", "2026-08-20"], { tz: "America/New_York" }).stdout).toBe(a);
    const g = palee(vault, ["goal", "--json", "--as-of", "2026-08-20"]).stdout;
    expect(palee(vault, ["goal", "--json", "--as-of", "2026-08-20"]).stdout).toBe(g);
  });
});

describe("setting goals", () => {
  it("creates plan.md with the goal from this week's Monday and one body line, then changes only what is asked", () => {
    const vault = makeVault();
    study(vault, "2026-01-05", 10, "T-z"); // every day of this week is available, whichever day today is
    const set = palee(vault, ["goal", "--minutes-per-week", "300", "--json"]);
    expect(set.status).toBe(0);
    const doc = set.json();
    const today = Date.parse(`${doc.as_of as string}T00:00:00Z`);
    const monday = new Date(today - ((new Date(today).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    expect(doc).toMatchObject({
      status: "goal_set",
      week: { from: monday, target_minutes: 300, status: "in_progress" },
    });
    const text = readText(vault, PLAN);
    expect(text).toContain(`goals:\n  - from: ${monday}\n    minutes_per_week: 300\n`);
    expect(text.split("---\n")[2]).toMatch(/^Your PALEE study plan: .*\n$/);
    fs.appendFileSync(path.join(vault, PLAN), "My own line.\n");
    const topic = palee(vault, ["goal", "--topic", "T-a", "--sessions-per-week", "3", "--rest-days", "sat,sun"]);
    expect(topic.status).toBe(0);
    const after = readText(vault, PLAN);
    expect(after).toContain(`goals:\n  - from: ${monday}\n    minutes_per_week: 300\n`);
    expect(after).toContain("topics:\n  T-a:\n    sessions_per_week: 3\n");
    expect(after).toContain("rest_days:\n  - sat\n  - sun\n");
    expect(after.endsWith("`palee session goal`).\nMy own line.\n")).toBe(true);

    // The brief's week line (contract §4c "Brief"), within its words.
    study(vault, doc.as_of as string, 20, "T-a", "00:00:00"); // at midnight: never after now
    const brief = palee(vault, ["context", "--topic", "T-a", "--json", "--words", "50"]).json();
    expect(brief.text).toContain("\n\nThis week: 1 of 3 sessions\n");
    expect(brief.week).toMatchObject({ from: monday, minutes: 20, sessions: 1, target_sessions: 3 });
    expect(palee(vault, ["context", "--topic", "T-b", "--json"]).json().week).toBeNull();
  });

  it("takes an original tool's topic ID (git_rebase) as --topic and as a topics key", () => {
    const vault = makeVault();
    study(vault, "2026-01-05", 10, "git_rebase");
    const set = palee(vault, ["goal", "--topic", "git_rebase", "--sessions-per-week", "2", "--json"]);
    expect(set.status).toBe(0);
    expect(set.json().topics).toEqual([expect.objectContaining({ topic_id: "git_rebase", target_sessions: 2 })]);
    expect(readText(vault, PLAN)).toContain("topics:\n  git_rebase:\n    sessions_per_week: 2\n");
    expect(palee(vault, ["goal", "--json"]).json().warnings).toEqual([]);
    const unknown = palee(vault, ["goal", "--topic", "no such topic", "--minutes-per-week", "60", "--json"]);
    expect(unknown.status).toBe(2);
    expect(unknown.json().code).toBe("unknown_topic");
  });

  it("writes under the vault lock (busy, exit 4, nothing written) and reads without it", async () => {
    const vault = makeVault();
    study(vault, "2026-07-20", 30);
    const env = { PALEE_CACHE_DIR: testCacheDir(), PALEE_LOCK_WAIT_MS: "300" };
    const held = await lockVault(vault, { ...process.env, ...env });
    try {
      const write = palee(vault, ["goal", "--minutes-per-week", "300", "--json"], { env });
      expectCleanError(write, 4, { json: true, code: "busy" });
      expect(fs.existsSync(path.join(vault, PLAN))).toBe(false);
      for (const args of [["goal"], ["year"], ["goal", "--topic", "T-a"]]) {
        expect(palee(vault, [...args, "--as-of", "2026-07-22"], { env }).status).toBe(0);
      }
    } finally {
      await held.release();
    }
  });
});

describe("--as-of on stats and context (contract §4c)", () => {
  it("leaves out the sessions after the as-of day and moves today, the weeks and the streaks", () => {
    const vault = makeVault();
    study(vault, "2026-07-20", 30);
    study(vault, "2026-07-21", 40);
    study(vault, "2026-07-23", 50); // after as-of
    const doc = palee(vault, ["stats", "--json", "--as-of", "2026-07-22"]).json();
    expect(doc).toMatchObject({
      total_minutes: 70,
      total_sessions: 2,
      today: { date: "2026-07-22", minutes: 0 },
      this_week: { start: "2026-07-20", minutes: 70 },
      streak: { current: 2, longest: 2 },
      week: { from: "2026-07-20", minutes: 70, status: "met" },
      day_chain: { current: 2, longest: 2, freezes_left: 2 },
    });
  });

  it("keeps the brief's week line within --words 50 (example 15), with the topic line and the next action", () => {
    const vault = makeVault();
    writeFile(vault, PLAN, plan("topics:\n  T-a:\n    minutes_per_week: 120\n    sessions_per_week: 3\n"));
    writeConfirmed(vault, {
      id: "S-20260720T100000-00aa",
      topic: "T-a",
      startedAt: "2026-07-20T10:00:00+00:00",
      endedAt: "2026-07-20T10:40:00+00:00",
      duration: 40,
      summary: "word ".repeat(80).trim(),
      next: "Read chapter four on borrowing and write two examples",
    });
    const doc = palee(vault, ["context", "--topic", "T-a", "--words", "50", "--json", "--as-of", "2026-07-22"]).json();
    const text = doc.text as string;
    expect(text.split(/\s+/).filter((w) => w !== "").length).toBeLessThanOrEqual(50);
    expect(text).toContain("# Tutor brief: T-a");
    expect(text).toContain("Read chapter four on borrowing and write two examples");
    expect(text).toContain("This week: 40 of 120 min, 1 of 3 sessions\n");
    expect(doc.week).toEqual({
      from: "2026-07-20",
      to: "2026-07-26",
      minutes: 40,
      sessions: 1,
      target_minutes: 120,
      target_sessions: 3,
      status: "in_progress",
    });
  });
});
