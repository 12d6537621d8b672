/** Test data builders: session files exactly as the core writes them, with overridable fields. */
import { renderFrontmatter } from "../../src/core/records/frontmatter";
import type { FieldValue } from "../../src/core/records/frontmatter";

export function draftText(fields: Partial<Record<string, FieldValue>> & { session_id: string }, body = ""): string {
  const base: Array<[string, FieldValue]> = [
    ["palee_schema", 1],
    ["session_id", fields.session_id],
    ["topic_id", "T-rust-ownership"],
    ["started_at", "2026-08-14T11:00:00+00:00"],
    ["ended_at", null],
    ["status", "draft"],
    ["last_checkpoint_at", "2026-08-14T11:30:00+00:00"],
    ["device", "laptop"],
  ];
  return merge(base, fields) + body;
}

export function confirmedText(
  fields: Partial<Record<string, FieldValue>> & { session_id: string },
  sections: { summary?: string; next?: string; notes?: string } = {},
): string {
  const base: Array<[string, FieldValue]> = [
    ["palee_schema", 1],
    ["session_id", fields.session_id],
    ["topic_id", "T-rust-ownership"],
    ["started_at", "2026-08-13T10:00:00+00:00"],
    ["ended_at", "2026-08-13T10:45:00+00:00"],
    ["duration_minutes", 45],
    ["status", "completed"],
    ["outcome", "completed"],
    ["absorbed_drafts", []],
  ];
  const body = [
    `# Session: ${fields.session_id}\n`,
    sections.summary ? `\n## Summary\n\n${sections.summary}\n` : "",
    sections.next ? `\n## Next action\n\n${sections.next}\n` : "",
    sections.notes ? `\n## Notes\n\n${sections.notes}\n` : "",
  ].join("");
  return merge(base, fields) + body;
}

export function hotText(fields: Partial<Record<string, FieldValue>> = {}, body = "No history yet.\n"): string {
  const base: Array<[string, FieldValue]> = [
    ["palee_schema", 1],
    ["memory_id", "H-active"],
    ["active_topic", null],
    ["started_at", null],
    ["open_draft", null],
    ["device", null],
    ["last_session", null],
    ["updated_at", "2026-08-13"],
  ];
  return merge(base, fields) + body;
}

function merge(base: Array<[string, FieldValue]>, fields: Partial<Record<string, FieldValue>>): string {
  const keys = new Set(base.map(([k]) => k));
  const entries: Array<[string, FieldValue]> = base
    .filter(([k]) => fields[k] !== undefined || !(k in fields))
    .map(([k, v]) => [k, k in fields ? (fields[k] as FieldValue) : v]);
  for (const [k, v] of Object.entries(fields)) if (!keys.has(k) && v !== undefined) entries.push([k, v]);
  return renderFrontmatter(entries);
}
