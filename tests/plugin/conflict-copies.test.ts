/**
 * A sync tool's conflict copy of a draft in the recovery modal: the "Save records N min" it shows is what
 * Save writes, which takes the draft and its copies together (tests/core/conflict-copies.test.ts).
 */
import { draftText, hotText } from "../support/builders";
import { HOT, S, confirmedPaths, fieldsAt } from "./support/session-files";
import {
  harness,
  installPluginTestEnvironment,
  loadPlugin,
  recoverAction,
  recoveryRows,
} from "./support/plugin-harness";

installPluginTestEnvironment();

const X = "DRAFT-S-12345678";
const X2 = "DRAFT-S-12345678 2";
const base = { session_id: X, topic_id: "T-sync", started_at: "2026-08-14T09:00:00+00:00", device: "old-laptop" };

it(
  "shows, for the draft and for its copy, the duration Save records for both, and Save " + "records one session",
  async () => {
    const h = harness({
      files: {
        [HOT]: hotText({ active_topic: "T-sync" }),
        [S(X)]: draftText({ ...base, last_checkpoint_at: "2026-08-14T09:20:00+00:00" }, "Laptop notes.\n"),
        [S(X2)]: draftText({ ...base, last_checkpoint_at: "2026-08-14T09:40:00+00:00" }, "Phone notes.\n"),
      },
    });
    await loadPlugin(h, { device: "laptop" });
    const rows = recoveryRows();
    expect(rows.map((r) => r.draftId).sort()).toEqual([X, X2]);
    for (const row of rows) expect(row.text).toContain("Save records 40 min");
    await recoverAction(X, "save");
    const notes = confirmedPaths(h);
    expect(notes).toHaveLength(1);
    expect(fieldsAt(h, notes[0])).toMatchObject({ duration_minutes: 40, absorbed_drafts: [X, X2] });
  },
);
