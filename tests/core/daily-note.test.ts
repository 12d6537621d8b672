import {
  DEFAULT_DAILY_HEADING,
  insertUnderHeading,
  normalizeHeading,
  renderDailyNoteLine,
} from "../../src/core/records/daily-note";

const H = DEFAULT_DAILY_HEADING;
const LINE = "- 14:02–14:44 T-rust-ownership, 42 min [[S-20260814T140200-abcd]]";
const LINK = "S-20260814T140200-abcd";

describe("the daily-note line", () => {
  const session = {
    path: "palee/sessions/S-20260814T140200-abcd.md",
    topicId: "T-rust-ownership",
    startedAt: "2026-08-14T14:02:00+02:00",
    endedAt: "2026-08-14T14:44:30+02:00",
    durationMinutes: 42,
  };

  it("shows the recorded local times, the topic, the minutes and a link to the session note", () => {
    expect(renderDailyNoteLine(session)).toBe(LINE);
  });

  it("escapes a hostile topic so it stays one line of plain text", () => {
    const line = renderDailyNoteLine({ ...session, topicId: "T-x]] <script>alert(1)</script>\n## Owned [[evil]]" });
    expect(line).not.toContain("\n");
    expect(line).not.toContain("<script>");
    expect(line).toContain("\\<script\\>");
    expect(line.match(/\[\[/g)).toHaveLength(1);
    expect(line.endsWith(`[[${LINK}]]`)).toBe(true);
  });
});

describe("inserting the line under the heading", () => {
  it("adds the heading and the line at the end of a note without it, after a blank line", () => {
    expect(insertUnderHeading("# Friday\n\nWent well.\n", H, LINE)).toBe(`# Friday\n\nWent well.\n\n${H}\n${LINE}\n`);
    expect(insertUnderHeading("Went well.", H, LINE)).toBe(`Went well.\n\n${H}\n${LINE}\n`);
    expect(insertUnderHeading("", H, LINE)).toBe(`${H}\n${LINE}\n`);
  });

  it("adds after the last line of the heading's section, keeping what follows byte for byte", () => {
    const before = `# Day\n${H}\n- 09:00–09:30 T-a, 30 min [[S-1]]\n\n## Later\ntext  \n`;
    expect(insertUnderHeading(before, H, LINE)).toBe(
      `# Day\n${H}\n- 09:00–09:30 T-a, 30 min [[S-1]]\n${LINE}\n\n## Later\ntext  \n`,
    );
  });

  it("treats deeper headings as part of the section and stops at one of the same level", () => {
    const before = `${H}\n- a\n### Detail\n- b\n## Next\n`;
    expect(insertUnderHeading(before, H, LINE)).toBe(`${H}\n- a\n### Detail\n- b\n${LINE}\n## Next\n`);
  });

  it("ignores the heading inside a code block", () => {
    const before = `\`\`\`\n${H}\n\`\`\`\n`;
    expect(insertUnderHeading(before, H, LINE)).toBe(`${before}\n${H}\n${LINE}\n`);
  });

  it("keeps Windows line endings and a note without a final line break", () => {
    expect(insertUnderHeading(`${H}\r\n- a\r\n`, H, LINE)).toBe(`${H}\r\n- a\r\n${LINE}\r\n`);
    expect(insertUnderHeading(`${H}\n- a`, H, LINE)).toBe(`${H}\n- a\n${LINE}\n`);
  });

  it("adds nothing when the session is already linked in the note (a retried end)", () => {
    const before = `${H}\n${LINE}\n`;
    expect(insertUnderHeading(before, H, LINE, LINK)).toBe(before);
  });
});

describe("the heading setting", () => {
  it.each([
    ["", H],
    ["  ", H],
    ["##", H],
    ["Study log", "## Study log"],
    ["### Study log", "### Study log"],
    ["#Study", "## Study"],
    ["## a\nb", "## a b"],
  ])("reads %j as %j", (raw, heading) => {
    expect(normalizeHeading(raw)).toBe(heading);
  });
});
