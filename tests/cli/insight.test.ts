/** CLI end-to-end: `palee session stats` and `palee session export` (contract §4a, §5). */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  cleanupVaults,
  expectCleanError,
  indexLines,
  makeTempDir,
  makeVault,
  palee,
  writeConfirmed,
  writeFile,
} from "./support";

afterEach(cleanupVaults);

/** Three November sessions on two topics, one with a hostile summary, plus absurd records. */
function history(): string {
  const vault = makeVault();
  writeConfirmed(vault, {
    id: "S-20261102T090000-0001",
    topic: "T-rust",
    startedAt: "2026-11-02T09:00:00+00:00",
    endedAt: "2026-11-02T09:45:00+00:00",
    duration: 45,
    summary: 'Borrowing, "two" rules\n=1+1',
  });
  writeConfirmed(vault, {
    id: "S-20261103T233000-0002",
    topic: "T-rust",
    startedAt: "2026-11-03T23:30:00+00:00",
    endedAt: "2026-11-04T00:30:00+00:00",
    duration: 60,
  });
  writeConfirmed(vault, {
    id: "S-20261104T100000-0003",
    topic: "T-<script>x</script>",
    startedAt: "2026-11-04T10:00:00+00:00",
    endedAt: "2026-11-04T10:30:00+00:00",
    duration: 30,
    summary: "@SUM(A1)",
  });
  writeConfirmed(vault, {
    id: "S-20991104T100000-0004",
    topic: "T-rust",
    startedAt: "2099-11-04T10:00:00+00:00",
    endedAt: "2099-11-04T10:30:00+00:00",
    duration: 30,
  });
  writeConfirmed(vault, {
    id: "S-20261105T100000-0005",
    topic: "T-rust",
    startedAt: "2026-11-05T10:00:00+00:00",
    endedAt: "2026-11-05T10:30:00+00:00",
    duration: 999999,
  });
  writeConfirmed(vault, {
    id: "S-20261106T100000-0006",
    topic: "T-rust",
    startedAt: "2026-11-06T10:00:00+00:00",
    endedAt: "2026-11-06T10:30:00+00:00",
    duration: -5,
  });
  return vault;
}

describe("palee session stats", () => {
  it("prints the contract §5 document with --json, counting a midnight-crossing session on its start day", () => {
    const run = palee(history(), ["stats", "--since", "2026-11-01", "--until", "2026-11-30", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(doc).toMatchObject({ total_minutes: 165, total_sessions: 4, since: "2026-11-01", until: "2026-11-30" });
    expect(Object.keys(doc)).toEqual(
      expect.arrayContaining(["today", "this_week", "last_week", "streak", "by_day", "by_topic"]),
    );
    expect(doc.by_day).toEqual([
      { date: "2026-11-02", minutes: 45, sessions: 1 },
      { date: "2026-11-03", minutes: 60, sessions: 1 },
      { date: "2026-11-04", minutes: 30, sessions: 1 },
      { date: "2026-11-05", minutes: 30, sessions: 1 },
    ]);
    expect(doc.by_topic).toEqual([
      { topic_id: "T-rust", minutes: 135, sessions: 3, first: "2026-11-02", last: "2026-11-05" },
      { topic_id: "T-<script>x</script>", minutes: 30, sessions: 1, first: "2026-11-04", last: "2026-11-04" },
    ]);
    expect(doc.streak).toMatchObject({ longest: 4 });
    // The absurd duration is cut and listed; the negative one is skipped by name (contract §3).
    expect(doc.flagged).toEqual([
      expect.objectContaining({ session_id: "S-20261105T100000-0005", counted_minutes: 30 }),
    ]);
    expect(doc.skipped).toEqual([expect.objectContaining({ path: "palee/sessions/S-20261106T100000-0006.md" })]);
    expect(run.stderr).toMatch(/S-20261105T100000-0005\.md: duration_minutes 999999/);
  });

  it("leaves a session dated 2099 out and says so", () => {
    const doc = palee(history(), ["stats", "--json"]).json();
    expect(doc.total_sessions).toBe(4);
    expect(doc.flagged).toEqual(
      expect.arrayContaining([expect.objectContaining({ session_id: "S-20991104T100000-0004", counted: false })]),
    );
  });

  it("prints a readable table without --json", () => {
    const run = palee(history(), ["stats", "--since", "2026-11-01", "--until", "2026-11-14"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Study statistics \(2026-11-01 to 2026-11-14\)$/m);
    expect(run.stdout).toMatch(/Total\s+2 h 45 min in 4 sessions/);
    expect(run.stdout).toMatch(/^ {2}T-rust\s+135\s+3\s+2026-11-02\s+2026-11-05$/m);
    expect(run.stdout).toMatch(/^ {2}2026-11-03\s+60\s+#+$/m);
  });

  it("counts a session on the day recorded in its own offset, in every zone, as index.md does", () => {
    const vault = history();
    // 23:30 in India is 18:00 UTC, 13:00 in New York and 03:00 on the 8th in Tokyo: it stays on the 7th.
    writeConfirmed(vault, {
      id: "S-20261107T180000-0007",
      topic: "T-go",
      startedAt: "2026-11-07T23:30:00+05:30",
      endedAt: "2026-11-08T00:10:00+05:30",
      duration: 40,
    });
    const expected = ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-07"];
    for (const tz of ["UTC", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati"]) {
      const doc = palee(vault, ["stats", "--since", "2026-11-01", "--until", "2026-11-30", "--json"], { tz }).json();
      expect({ tz, days: (doc.by_day as Array<{ date: string }>).map((d) => d.date) }).toEqual({ tz, days: expected });
      const go = (doc.by_topic as Array<{ topic_id: string }>).find((t) => t.topic_id === "T-go");
      expect({ tz, go }).toEqual({
        tz,
        go: { topic_id: "T-go", minutes: 40, sessions: 1, first: "2026-11-07", last: "2026-11-07" },
      });
      // --until 2026-11-07 keeps it, --since 2026-11-08 leaves it out, in every zone.
      const until = palee(vault, ["stats", "--since", "2026-11-07", "--until", "2026-11-07", "--json"], { tz }).json();
      expect({ tz, minutes: until.total_minutes }).toEqual({ tz, minutes: 40 });
      const since = palee(vault, ["stats", "--since", "2026-11-08", "--until", "2026-11-30", "--json"], { tz }).json();
      expect({ tz, minutes: since.total_minutes }).toEqual({ tz, minutes: 0 });
    }
    expect(palee(vault, ["rebuild"], { tz: "Asia/Tokyo" }).status).toBe(0);
    expect(indexLines(vault)).toContain("- [[S-20261107T180000-0007]] - Topic: T-go (2026-11-07, 40 min)");
  });

  it("refuses a bad date or an empty range with a usage error", () => {
    expectCleanError(palee(history(), ["stats", "--since", "2026-02-30"]), 2);
    expectCleanError(palee(history(), ["stats", "--since", "2026-11-30", "--until", "2026-11-01", "--json"]), 2, {
      json: true,
    });
    expectCleanError(palee(history(), ["stats", "--format", "csv"]), 2);
  });
});

/** The chart's rows of a stats text: "  2026-11-03  60  ####". */
const chartDays = (stdout: string): string[] =>
  [...stdout.matchAll(/^ {2}(\d{4}-\d{2}-\d{2})\s+\d+/gm)].map((m) => m[1]);
const utcDay = (daysAgo: number): string => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe("palee session stats over --since/--until", () => {
  it("leaves out Today, the weeks and the current streak of a range in the past, and charts only its days", () => {
    const run = palee(history(), ["stats", "--since", "2026-11-03", "--until", "2026-11-05"]);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toMatch(/Today|This week|Last week|now,/);
    expect(run.stdout).toMatch(/^ {2}Total\s+2 h in 3 sessions$/m);
    expect(run.stdout).toMatch(/^ {2}Streak\s+longest 3 days in the range$/m);
    expect(run.stdout).toMatch(/^Days 2026-11-03 to 2026-11-05$/m);
    expect(chartDays(run.stdout)).toEqual(["2026-11-03", "2026-11-04", "2026-11-05"]);
    expect(run.stdout).toMatch(/^ {2}2026-11-03\s+60\s+#+$/m);
    expect(run.stdout).toMatch(/^ {2}2026-11-05\s+30\s+#+$/m);
    const doc = palee(history(), ["stats", "--since", "2026-11-03", "--until", "2026-11-05", "--json"]).json();
    expect(doc).toMatchObject({ today: null, this_week: null, last_week: null, streak: { current: null, longest: 3 } });
    expect((doc.by_day as Array<{ date: string }>).map((d) => d.date)).toEqual([
      "2026-11-03",
      "2026-11-04",
      "2026-11-05",
    ]);
  });

  it("charts at most the last 14 days of a longer range, never a day after it", () => {
    const run = palee(history(), ["stats", "--since", "2026-10-01", "--until", "2026-11-06"]);
    expect(run.stdout).toMatch(/^Days 2026-10-24 to 2026-11-06$/m);
    const days = chartDays(run.stdout);
    expect(days).toHaveLength(14);
    expect([days[0], days[13]]).toEqual(["2026-10-24", "2026-11-06"]);
  });

  it("shows Today when the range holds it, and charts from its first day", () => {
    const vault = makeVault();
    expect(palee(vault, ["log", "--topic", "T-a", "--minutes", "20"]).status).toBe(0);
    const since = utcDay(3);
    const run = palee(vault, ["stats", "--since", since]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^ {2}Today\s+20 min \(1 session, \d{4}-\d{2}-\d{2}\)$/m);
    expect(run.stdout).toMatch(/^ {2}Streak\s+1 day now, longest 1 day in the range$/m);
    expect(run.stdout).toMatch(new RegExp(`^Days ${since} to \\d{4}-\\d{2}-\\d{2}$`, "m"));
    expect(chartDays(run.stdout).filter((d) => d < since)).toEqual([]);
    const doc = palee(vault, ["stats", "--since", since, "--json"]).json();
    expect(doc.today).toMatchObject({ minutes: 20, sessions: 1 });
    expect(doc.streak).toEqual({ current: 1, longest: 1 });
  });

  it("without a range shows every period, zeros included, and the last 14 days", () => {
    const run = palee(history(), ["stats"]);
    expect(run.stdout).toMatch(/^ {2}Today\s+0 min/m);
    expect(run.stdout).toMatch(/^ {2}This week\s+/m);
    expect(run.stdout).toMatch(/^ {2}Streak\s+0 days now, longest 4 days$/m);
    expect(run.stdout).toMatch(/^Last 14 days \(to \d{4}-\d{2}-\d{2}\)$/m);
  });
});

describe("palee session export", () => {
  it("writes RFC 4180 CSV, oldest first, with the formula guard", () => {
    const run = palee(history(), ["export", "--until", "2026-11-30"]);
    expect(run.status).toBe(0);
    const records = run.stdout.split("\r\n");
    expect(records[0]).toBe(
      "session_id,topic_id,started_at,ended_at,duration_minutes,hours,break_minutes,outcome,summary,path",
    );
    expect(records[1]).toBe(
      "S-20261102T090000-0001,T-rust,2026-11-02T09:00:00+00:00,2026-11-02T09:45:00+00:00,45,0.75,0,completed," +
        '"Borrowing, ""two"" rules\n=1+1",palee/sessions/S-20261102T090000-0001.md',
    );
    expect(records[3]).toContain("T-<script>x</script>");
    expect(records[3]).toContain(",'@SUM(A1),");
    expect(records).toHaveLength(6); // header, 4 sessions, and the empty string after the last CRLF
    expect(run.stderr).toMatch(/skipped palee\/sessions\/S-20261106T100000-0006\.md/);
  });

  it("writes JSON rows with --format json", () => {
    const doc = palee(history(), [
      "export",
      "--format",
      "json",
      "--since",
      "2026-11-04",
      "--until",
      "2026-11-04",
    ]).json();
    expect(doc.sessions).toEqual([
      expect.objectContaining({
        session_id: "S-20261104T100000-0003",
        duration_minutes: 30,
        hours: 0.5,
        break_minutes: 0,
        summary: "@SUM(A1)",
        path: "palee/sessions/S-20261104T100000-0003.md",
      }),
    ]);
  });

  it("writes a new file with --out and never overwrites one", () => {
    const vault = history();
    const dir = makeTempDir();
    const out = path.join(dir, "sessions.csv");
    const first = palee(vault, ["export", "--out", out, "--json"]);
    expect(first.status).toBe(0);
    // Outside the vault the path stays absolute (contract §5).
    expect(first.json()).toMatchObject({ status: "exported", format: "csv", path: out, rows: 5, sessions: 5 });
    const written = fs.readFileSync(out, "utf8");
    expect(written.startsWith("session_id,")).toBe(true);
    const again = palee(vault, ["export", "--out", out, "--format", "json"]);
    expectCleanError(again, 2);
    expect(again.stderr).toMatch(/already exists/);
    expect(fs.readFileSync(out, "utf8")).toBe(written);
    expect(fs.readdirSync(dir)).toEqual(["sessions.csv"]);
  });

  it("--out inside the vault prints the path relative to the vault in JSON (contract §5)", () => {
    const vault = history();
    fs.mkdirSync(path.join(vault, "palee", "exports"));
    const out = path.join(vault, "palee", "exports", "november.csv");
    const run = palee(vault, ["export", "--out", out, "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({ status: "exported", path: "palee/exports/november.csv", rows: 5 });
    expect(fs.existsSync(out)).toBe(true);
    // A relative --out is taken from the current folder, here the vault's own.
    const relative = palee(vault, ["export", "--out", "december.csv", "--json"], { cwd: vault });
    expect(relative.json()).toMatchObject({ status: "exported", path: "december.csv" });
  });

  it('--out "" and --out <a folder> say what is wrong, not "already exists"', () => {
    const vault = history();
    const empty = palee(vault, ["export", "--out", ""]);
    expectCleanError(empty, 2);
    expect(empty.stderr).toMatch(/--out is empty: give the name of a new file/);
    expect(empty.stderr).not.toMatch(/already exists/);
    const folder = palee(vault, ["export", "--out", makeTempDir()]);
    expectCleanError(folder, 2);
    expect(folder.stderr).toMatch(/is a folder: give the name of a new file/);
  });

  it("--out onto the tool's own files (a session-note name, hot.md, the sessions folder) is refused", () => {
    const vault = history();
    const before = fs.readdirSync(path.join(vault, "palee", "sessions")).sort();
    for (const name of [
      "palee/sessions/S-20261105T100000-0009.md",
      "palee/sessions/DRAFT-S-0000beef.md",
      "palee/sessions/notes.csv",
      "palee/hot.md",
      "palee/index.md",
    ]) {
      const run = palee(vault, ["export", "--out", path.join(vault, name), "--json"]);
      expectCleanError(run, 2, { json: true, code: "usage" });
      expect(run.json().message).toMatch(/inside the tool's own files/);
    }
    expect(fs.readdirSync(path.join(vault, "palee", "sessions")).sort()).toEqual(before);
    expect(fs.existsSync(path.join(vault, "palee", "hot.md"))).toBe(false);
  });

  it("writes a long export in parts that join to the same rows, on stdout and in a file", () => {
    const vault = makeVault();
    const long = 'Ownership, borrowing and "lifetimes"; '.repeat(40); // ~1.6 KB a summary: parts of 64 KB
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const day = String(1 + (i % 28)).padStart(2, "0");
      const hour = String(i % 24).padStart(2, "0");
      const id = `S-202611${day}T${hour}0000-${i.toString(16).padStart(4, "0")}`;
      ids.push(id);
      writeConfirmed(vault, {
        id,
        topic: "T-rust",
        startedAt: `2026-11-${day}T${hour}:00:00+00:00`,
        endedAt: `2026-11-${day}T${hour}:30:00+00:00`,
        duration: 30,
        summary: `${i} ${long}`,
      });
    }
    const csv = palee(vault, ["export"]);
    expect(csv.status).toBe(0);
    expect(csv.stdout.length).toBeGreaterThan(3 * 64 * 1024);
    const records = csv.stdout.split("\r\n").slice(1, -1);
    expect(records.map((r) => r.split(",")[0])).toEqual([...ids].sort());
    // Every summary whole, quoted once, whatever part of the output it fell in.
    for (const r of records) {
      const i = ids.indexOf(r.split(",")[0]);
      expect(r).toContain(`,"${i} ${long.trim().replace(/"/g, '""')}",`);
    }
    const json = palee(vault, ["export", "--format", "json"]);
    const doc = json.json() as { sessions: Array<{ summary: string }> };
    expect(doc.sessions).toHaveLength(120);
    expect(doc.sessions.map((s: { summary: string }) => s.summary.split(" ")[0]).sort()).toEqual(
      ids.map((_, i) => String(i)).sort(),
    );
    const out = path.join(makeTempDir(), "all.json");
    expect(palee(vault, ["export", "--format", "json", "--out", out]).status).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toBe(json.stdout);
  });

  it("exports an empty vault as just the header", () => {
    const vault = makeVault();
    writeFile(vault, "palee/sessions/.keep", "");
    const run = palee(vault, ["export"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      "session_id,topic_id,started_at,ended_at,duration_minutes,hours,break_minutes,outcome,summary,path\r\n",
    );
  });
});
