/** The core's export (PaleeSessions.exportRows): the one read both faces render as CSV or JSON. */
import { renderExportCsv } from "../../../src/core/insight/export";
import { confirmedText } from "../../support/builders";
import { harness } from "../../support/fakes";

const path = (id: string): string => `palee/sessions/${id}.md`;

function seeded() {
  const h = harness({ at: "2026-08-20T12:00:00Z" });
  const note = (id: string, day: string, summary?: string): void => {
    const fields = { session_id: id, started_at: `${day}T10:00:00+00:00`, ended_at: `${day}T10:45:00+00:00` };
    h.store.files.set(path(id), confirmedText(fields, { summary }));
  };
  note("S-20260813T1000-aaaa", "2026-08-13", "Borrowing\n\\# not a heading");
  note("S-20260811T1000-bbbb", "2026-08-11");
  note("S-20260815T1000-cccc", "2026-08-15", "Lifetimes");
  h.store.files.set(path("broken"), "not a session note");
  return h;
}

describe("exportRows", () => {
  it("gives every confirmed session oldest first, with its summary, and the files it could not read", async () => {
    const { core } = seeded();
    const { rows, skipped } = await core.exportRows();
    expect(rows.map((r) => r.session_id)).toEqual([
      "S-20260811T1000-bbbb",
      "S-20260813T1000-aaaa",
      "S-20260815T1000-cccc",
    ]);
    expect(rows.map((r) => r.summary)).toEqual(["", "Borrowing\n# not a heading", "Lifetimes"]);
    expect(rows[0]).toMatchObject({ duration_minutes: 45, hours: 0.75, path: path("S-20260811T1000-bbbb") });
    expect(skipped.map((s) => s.path)).toEqual([path("broken")]);
    expect(renderExportCsv(rows).split("\r\n")[0]).toBe(
      "session_id,topic_id,started_at,ended_at,duration_minutes,hours,break_minutes,outcome,summary,path",
    );
  });

  it("keeps only the sessions started within the local days asked for, both ends included", async () => {
    const { core } = seeded();
    const { rows } = await core.exportRows({ since: "2026-08-13", until: "2026-08-15" });
    expect(rows.map((r) => r.session_id)).toEqual(["S-20260813T1000-aaaa", "S-20260815T1000-cccc"]);
    expect((await core.exportRows({ since: "2026-08-14", until: null })).rows.map((r) => r.session_id)).toEqual([
      "S-20260815T1000-cccc",
    ]);
  });

  it("reads the days in the learner's time zone", async () => {
    const h = harness({ at: "2026-08-20T12:00:00Z", offset: 120 });
    // 23:30 UTC on the 13th is 01:30 on the 14th two hours east.
    const fields = { session_id: "S-x", started_at: "2026-08-13T23:30:00Z", ended_at: "2026-08-14T00:15:00Z" };
    h.store.files.set(path("S-x"), confirmedText(fields));
    expect((await h.core.exportRows({ since: "2026-08-14", until: "2026-08-14" })).rows).toHaveLength(1);
    expect((await h.core.exportRows({ since: "2026-08-13", until: "2026-08-13" })).rows).toHaveLength(0);
  });
});
