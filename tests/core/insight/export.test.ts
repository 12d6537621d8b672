import { exportRows, renderExportCsv, summaryOf } from "../../../src/core/insight/export";
import type { ExportSession } from "../../../src/core/insight/export";
import { csvField, renderCsv } from "../../../src/core/formats/csv";
import { BASES_MIN_VERSION, renderSessionsBase } from "../../../src/core/formats/bases";
import { parseFrontmatterYaml } from "./yaml-support";

function session(id: string, startedAt: string, minutes: number, body = ""): ExportSession {
  return {
    sessionId: id,
    path: `palee/sessions/${id}.md`,
    topicId: "T-rust",
    startedAt,
    startedMs: Date.parse(startedAt),
    endedAt: new Date(Date.parse(startedAt) + minutes * 60_000).toISOString(),
    durationMinutes: minutes,
    outcome: "completed",
    topicNote: null,
    body,
  };
}

describe("CSV", () => {
  it("quotes commas, quotes and line breaks, ends every record with CRLF", () => {
    expect(
      renderCsv(
        ["a", "b"],
        [
          ["x,y", 'say "hi"'],
          ["line\nbreak", null],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",\r\n');
  });

  it("guards fields a spreadsheet would run as a formula", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-2")).toBe("'-2");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\t=1")).toBe("'\t=1");
    expect(csvField("- borrowing")).toBe("'- borrowing");
    expect(csvField(12)).toBe("12");
  });
});

describe("export rows", () => {
  it("lists sessions oldest first with hours to two places and the summary text", () => {
    const rows = exportRows([
      session(
        "S-b",
        "2026-12-02T09:00:00Z",
        50,
        '# Session: S-b\n\n## Summary\n\nLifetimes, "elision"\n\\# not a heading\n\n## Next action\n\nMore\n',
      ),
      session("S-a", "2026-12-01T09:00:00Z", 45),
    ]);
    expect(rows.map((r) => r.session_id)).toEqual(["S-a", "S-b"]);
    expect(rows[0]).toMatchObject({ hours: 0.75, break_minutes: 0, summary: "" });
    expect(rows[1].summary).toBe('Lifetimes, "elision"\n# not a heading');
    const csv = renderExportCsv(rows);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      "session_id,topic_id,started_at,ended_at,duration_minutes,hours,break_minutes,outcome,summary,path",
    );
    expect(lines[1]).toBe(
      "S-a,T-rust,2026-12-01T09:00:00Z,2026-12-01T09:45:00.000Z,45,0.75,0,completed,,palee/sessions/S-a.md",
    );
    expect(csv.endsWith("\r\n")).toBe(true);
  });

  it("keeps a hostile topic and a formula summary as inert text", () => {
    const s = {
      ...session("S-x", "2026-12-01T09:00:00Z", 10, "## Summary\n\n=cmd|' /C calc'!A0\n"),
      topicId: "T-<script>alert(1)</script>",
    };
    const csv = renderExportCsv(exportRows([s]));
    expect(csv).toContain("T-<script>alert(1)</script>");
    expect(csv).toContain(`'=cmd|' /C calc'!A0`);
    expect(summaryOf("no summary here")).toBe("");
  });

  it("writes recorded values, never NaN, for absurd durations", () => {
    const rows = exportRows([{ ...session("S-n", "2026-12-01T09:00:00Z", 10), durationMinutes: Number.NaN }]);
    expect(rows[0]).toMatchObject({ duration_minutes: 0, hours: 0 });
  });
});

describe("sessions base", () => {
  type Parsed = {
    filters: { and: string[] };
    views: Array<{
      type: string;
      name: string;
      order: string[];
      groupBy?: { property: string };
      summaries: Record<string, string>;
      sort: unknown[];
    }>;
    formulas: Record<string, string>;
    properties: Record<string, unknown>;
  };
  const parsed = (): Parsed => parseFrontmatterYaml(renderSessionsBase('Study/pal\'ee "x"/sessions')) as Parsed;

  it("is YAML with the three documented views", () => {
    const base = parsed();
    expect(base.filters.and[0]).toBe('file.folder == "Study/pal\'ee \\"x\\"/sessions"');
    expect(base.views.map((v) => v.name)).toEqual(["Sessions", "By topic", "This week"]);
    expect(base.views.every((v) => v.type === "table" && v.summaries["formula.minutes"] === "Sum")).toBe(true);
    expect(base.views[0].sort).toEqual([{ property: "note.started_at", direction: "DESC" }]);
    expect(base.views[1].groupBy).toEqual({ property: "note.topic_id", direction: "ASC" });
    expect(Object.keys(base.formulas)).toEqual(["minutes", "hours", "day", "week"]);
  });

  it("says it needs Obsidian 1.10 (grouping and summaries), not 1.9", () => {
    const text = renderSessionsBase("palee/sessions");
    expect(text).toMatch(/Needs Obsidian 1\.10 or later/);
    expect(text).not.toMatch(/1\.9/);
    expect(BASES_MIN_VERSION).toBe("1.10.0");
  });

  it("names every note property with note., as Obsidian writes them", () => {
    const base = parsed();
    const ids = [
      ...base.views.flatMap((v) => [...v.order, ...Object.keys(v.summaries), v.groupBy?.property ?? "file.name"]),
      ...base.views.flatMap((v) => (v.sort as Array<{ property: string }>).map((s) => s.property)),
      ...Object.keys(base.properties),
    ];
    expect(ids.every((id) => /^(note|file|formula)\./.test(id))).toBe(true);
    expect(base.filters.and).toContain('note.status == "completed"');
  });

  it("sums minutes that the original tool's notes (no duration_minutes) derive from their timestamps", () => {
    const { minutes, hours } = parsed().formulas;
    expect(minutes).toMatch(/^if\(note\.duration_minutes\.isType\("number"\), note\.duration_minutes, /);
    expect(minutes).toContain(" - ");
    expect(minutes).toMatch(/\/ 60000\)\.round\(\)\)$/);
    expect(hours).toBe("(formula.minutes / 60).toFixed(2)");
  });

  it("reads started_at as a date whether the vault types it as a date or as text", () => {
    const { day, week } = parsed().formulas;
    const asDate = 'if(note.started_at.isType("date"), note.started_at, date(note.started_at.toString()';
    expect(day.startsWith(asDate)).toBe(true);
    expect(week.startsWith(asDate)).toBe(true);
    expect(day.endsWith('.format("YYYY-MM-DD")')).toBe(true);
    expect(week.endsWith('.format("GGGG-[W]WW")')).toBe(true);
  });
});
