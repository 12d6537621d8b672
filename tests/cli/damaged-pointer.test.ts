/**
 * CLI end-to-end: a hot.md whose open_draft is not a draft ID is a damaged pointer, reported as such: status
 * and draft answer (exit 0) instead of failing with "refused to remove".
 */
import { cleanupVaults, exists, makeVault, palee, readRecord, writeFile } from "./support";

afterEach(cleanupVaults);

const HOT = [
  "---",
  "palee_schema: 1",
  "memory_id: H-active",
  "active_topic: T-rust",
  'started_at: "2026-08-14T11:00:00+00:00"',
  'open_draft: "../../../outside"',
  "device: test-device",
  "last_session: null",
  "updated_at: 2026-08-14",
  "---",
  "Working memory\n",
].join("\n");

describe('hot.md with open_draft "../../../outside"', () => {
  it("status exits 0, reports no open session and names the damaged pointer", () => {
    const vault = makeVault();
    writeFile(vault, "palee/hot.md", HOT);
    const run = palee(vault, ["status", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toEqual({ open: null });
    expect(run.stderr).toMatch(/open_draft|not a draft ID/);
    expect(run.stderr).not.toMatch(/refused to remove/);
  });

  it("draft exits 0 and opens a new session's draft inside the session folder", () => {
    const vault = makeVault();
    writeFile(vault, "palee/hot.md", HOT);
    const run = palee(vault, ["draft", "--note", "a note", "--json"]);
    expect(run.status).toBe(0);
    const draftId = (run.json().draft as { draft_id: string }).draft_id;
    expect(exists(vault, `palee/sessions/${draftId}.md`)).toBe(true);
    expect(readRecord(vault, "palee/hot.md").fields).toMatchObject({ open_draft: draftId });
    expect(run.stderr).toMatch(/not a draft ID/);
    expect(exists(vault, "outside.md")).toBe(false);
  });
});
