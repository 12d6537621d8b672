import {
  classifyRecord,
  describeReadProblem,
  renderFrontmatter,
  updateFrontmatterFields,
} from "../../src/core/records/frontmatter";

describe("the five read states", () => {
  it.each([
    ["ok", "---\npalee_schema: 1\nactive_topic: T-a\n---\nbody\n"],
    ["ok", "\uFEFF---\r\npalee_schema: 1\r\nactive_topic: T-a\r\n---\r\nbody\r\n"],
    ["ok", "---\npalee_schema: 1\n...\nbody\n"],
    ["schema-invalid", "---\npalee_schema: 2\n---\n"],
    ["schema-invalid", '---\npalee_schema: "1"\n---\n'],
    ["schema-invalid", "---\npalee_schema: true\n---\n"],
    ["schema-invalid", "---\nactive_topic: T-a\n---\n"],
    ["no-frontmatter", "just text\n"],
    ["no-frontmatter", ""],
    ["no-frontmatter", "---\n---\nbody\n"],
    ["no-frontmatter", "---\n# only a comment\n---\n"],
    ["corrupt", "---\nkey: [unclosed\n---\n"],
    ["corrupt", "---\n- a\n- b\n---\n"],
    ["corrupt", "---\njust a scalar\n---\n"],
    ["corrupt", "---\npalee_schema: 1\npalee_schema: 1\n---\n"],
    ["corrupt", "---\npalee_schema: 1\nno closing fence\n"],
    ["missing", null],
  ])("classifies as %s: %j", (state, text) => {
    expect(classifyRecord(text).state).toBe(state);
  });

  it("keeps timestamps and dates as strings and unknown keys as they are", () => {
    const read = classifyRecord(
      "---\npalee_schema: 1\nstarted_at: 2026-08-14T12:00:00+05:30\nupdated_at: 2026-08-14\nfuture_key: {a: 1}\n---\n",
    );
    if (read.state !== "ok") throw new Error(read.state);
    expect(read.fields.started_at).toBe("2026-08-14T12:00:00+05:30");
    expect(read.fields.updated_at).toBe("2026-08-14");
    expect(read.fields.future_key).toEqual({ a: 1 });
  });

  it("exposes the fields of a schema-invalid record and says why it is unsupported", () => {
    const read = classifyRecord("---\npalee_schema: 2\nactive_topic: T-a\n---\n");
    expect(read).toMatchObject({ state: "schema-invalid", fields: { active_topic: "T-a" } });
    expect(describeReadProblem(read)).toBe("unsupported palee_schema 2 (this version reads 1)");
    expect(describeReadProblem(classifyRecord(""))).toBe("file is empty");
  });
});

describe("rendering frontmatter", () => {
  it.each([
    "plain",
    "T-rust-ownership",
    "2026-08-14T12:00:00+05:30",
    "true",
    "null",
    "~",
    "123",
    "with: colon",
    'quote " and backslash \\',
    "line\nbreak",
    "# not a comment",
    "- not a list",
    "[[Rust ownership]]",
    "emoji 🦀 and ünïcödé",
    "separator\u2028inside",
    "",
  ])("round-trips the string %j", (value) => {
    const read = classifyRecord(
      renderFrontmatter([
        ["palee_schema", 1],
        ["value", value],
        ["list", [value, "x"]],
      ]),
    );
    expect(read).toMatchObject({ state: "ok", fields: { value, list: [value, "x"] } });
  });
});

describe("updating frontmatter fields", () => {
  const text =
    "---\npalee_schema: 1\n# a comment the user wrote\nlast_checkpoint_at: " +
    '"2026-08-14T12:00:00+00:00"\ntags:\n  - study\n---\nMy notes\n---\nnot frontmatter\n';

  it("replaces one field in place and keeps every other byte", () => {
    const updated = updateFrontmatterFields(text, { last_checkpoint_at: "2026-08-14T12:05:00+00:00" });
    expect(updated).toBe(text.replace("12:00:00", "12:05:00"));
  });

  it("adds a missing field at the end of the block", () => {
    const updated = updateFrontmatterFields(text, { device: "phone" });
    expect(updated).toContain("  - study\ndevice: phone\n---\nMy notes\n");
  });

  it("re-renders only the block when a field spans several lines, keeping the body", () => {
    const updated = updateFrontmatterFields(text, { tags: null });
    expect(classifyRecord(updated)).toMatchObject({ state: "ok", fields: { tags: null, palee_schema: 1 } });
    expect(updated.endsWith("---\nMy notes\n---\nnot frontmatter\n")).toBe(true);
  });
});
