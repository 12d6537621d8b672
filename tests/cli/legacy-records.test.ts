/**
 * CLI end-to-end on a `.palee/` folder written by the original PALEE tool (contract §2 "Records of the original
 * PALEE tool"): its notes are listed and rebuilt from, and never rewritten.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { cleanupVaults, makeVault, palee, readRecord, readText, writeFile } from "./support";

afterEach(cleanupVaults);

const ID = "S-20260809T131929-2dc9";
const NOTE = `.palee/sessions/${ID}.md`;
const ORIGINAL = fs.readFileSync(path.join(__dirname, "..", "fixtures", "original", `${ID}.md`), "utf8");

describe("the original PALEE tool's example note", () => {
  it("is listed by list --folder .palee, with nothing skipped", () => {
    const vault = makeVault();
    writeFile(vault, NOTE, ORIGINAL);
    const run = palee(vault, ["list", "--folder", ".palee", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({
      total_confirmed: 1,
      skipped: [],
      confirmed: [
        {
          session_id: ID,
          topic_id: "T-general",
          started_at: "2026-08-09T13:19:29.192Z",
          duration_minutes: 0,
          outcome: "completed",
        },
      ],
    });
  });

  it("is rebuilt from, sets the active topic for a plain start, and is never rewritten", () => {
    const vault = makeVault();
    writeFile(vault, NOTE, ORIGINAL);
    const run = palee(vault, ["rebuild", "--folder", ".palee", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({ status: "rebuilt", total_confirmed: 1, skipped: [] });
    expect(readText(vault, ".palee/index.md")).toContain(`- [[${ID}]] - Topic: T-general (2026-08-09, 0 min)`);
    expect(readRecord(vault, ".palee/hot.md").fields).toMatchObject({
      active_topic: "T-general",
      last_session: ID,
      open_draft: null,
    });
    expect(readText(vault, NOTE)).toBe(ORIGINAL);

    const start = palee(vault, ["start", "--folder", ".palee", "--json"]);
    expect(start.status).toBe(0);
    expect(start.json()).toMatchObject({ status: "started", topic_id: "T-general", last_session: ID });
    expect(readText(vault, NOTE)).toBe(ORIGINAL);
  });
});
