/**
 * CLI end-to-end: the full lifecycle start → draft → status → end → list, checked on disk and in the output;
 * --help; the JSON shapes of contract §5.
 */
import {
  cleanupSuiteVaults,
  cleanupVaults,
  confirmedFiles,
  DEVICE,
  draftFiles,
  expectNearNow,
  indexLines,
  localDay,
  makeSuiteVault,
  makeVault,
  palee,
  readRecord,
  readText,
  runRaw,
  section,
  sessionFiles,
  tempFilesIn,
  trashFiles,
  utcCompact,
} from "./support";

afterEach(cleanupVaults);

const S_KEYS = [
  "break_minutes",
  "duration_minutes",
  "ended_at",
  "next_done",
  "outcome",
  "path",
  "recall_rating",
  "session_id",
  "started_at",
  "topic_id",
];
const D_KEYS = ["device", "draft_id", "last_checkpoint_at", "path", "started_at", "topic_id"];
const O_KEYS = [
  "agent",
  "break_minutes",
  "device",
  "draft_id",
  "draft_path",
  "elapsed_seconds",
  "last_checkpoint_at",
  "paused_at",
  "silence_seconds",
  "started_at",
  "topic_id",
];

describe("full lifecycle (text output)", () => {
  let vault: string;
  const out: Record<string, { status: number | null; stdout: string; stderr: string }> = {};

  beforeAll(() => {
    vault = makeSuiteVault();
    out.start = palee(vault, ["start", "--topic", "T-rust-ownership"]);
    out.draft = palee(vault, ["draft", "--note", "Borrowing rules: one &mut or many &."]);
    out.status = palee(vault, ["status"]);
    out.end = palee(vault, [
      "end",
      "--summary",
      "Learned the borrow checker basics.",
      "--next",
      "Read chapter 5 on structs.",
    ]);
    out.list = palee(vault, ["list"]);
  });
  afterAll(cleanupSuiteVaults);

  it("exits 0 at every step with nothing on stderr but start's new-topic notice", () => {
    for (const [step, run] of Object.entries(out)) {
      const stderr = step === "start" ? "new topic T-rust-ownership\n" : "";
      expect({ step, status: run.status, stderr: run.stderr }).toEqual({ step, status: 0, stderr });
    }
  });

  it("start prints a readable sentence naming the topic and the draft", () => {
    expect(out.start.stdout).toMatch(
      /^Started a session on T-rust-ownership at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00 \(draft DRAFT-S-[0-9a-f]{8}\)\./,
    );
    expect(out.start.stdout).toContain("Last session: none");
    expect(out.start.stdout).toContain("No sessions on T-rust-ownership yet");
  });

  it("draft updates the open session's draft and says so", () => {
    expect(out.draft.stdout).toMatch(/^Updated DRAFT-S-[0-9a-f]{8} for T-rust-ownership/);
  });

  it("status shows the open session with topic, device, elapsed time and draft", () => {
    expect(out.status.stdout).toContain(`Open session: T-rust-ownership on ${DEVICE}`);
    expect(out.status.stdout).toMatch(/Elapsed: 0:00:\d\d; last checkpoint .+; draft DRAFT-S-[0-9a-f]{8}/);
  });

  it("end prints the saved session, its duration and the merged draft", () => {
    expect(out.end.stdout).toMatch(/^Saved S-\d{8}T\d{6}-[0-9a-f]{4}: T-rust-ownership, 0 min \(/);
    expect(out.end.stdout).toMatch(/Merged and trashed: DRAFT-S-[0-9a-f]{8}/);
  });

  it("list prints the totals and the session in plain text (no JSON, no undefined)", () => {
    expect(out.list.stdout).toContain("Confirmed sessions: 1");
    expect(out.list.stdout).toMatch(/ {2}S-\d{8}T\d{6}-[0-9a-f]{4} {2}T-rust-ownership {2}\S+ {2}0 min {2}completed/);
    expect(out.list.stdout).toContain("Drafts: 0");
    for (const run of Object.values(out)) {
      expect(run.stdout).not.toMatch(/undefined|\[object Object\]|^\s*[{[]/m);
    }
  });

  it("writes one confirmed note with the contract frontmatter and the Summary, Next action and Notes sections", () => {
    const [file] = confirmedFiles(vault);
    expect(confirmedFiles(vault)).toHaveLength(1);
    const id = file.slice(0, -3);
    const draftId = /draft (DRAFT-S-[0-9a-f]{8})/.exec(out.start.stdout)?.[1];
    const { fields, body } = readRecord(vault, `palee/sessions/${file}`);
    expect(fields).toEqual({
      palee_schema: 1,
      session_id: id,
      topic_id: "T-rust-ownership",
      started_at: expect.stringMatching(/\+00:00$/) as string,
      ended_at: expect.stringMatching(/\+00:00$/) as string,
      duration_minutes: 0,
      status: "completed",
      outcome: "completed",
      absorbed_drafts: [draftId],
    });
    expect(id).toBe(`S-${utcCompact(Date.parse(fields.started_at as string))}-${id.slice(-4)}`);
    expectNearNow(fields.started_at, 60);
    expect(body.startsWith(`# Session: ${id}\n`)).toBe(true);
    expect(section(body, "Summary")).toBe("Learned the borrow checker basics.");
    expect(section(body, "Next action")).toBe("Read chapter 5 on structs.");
    // Headed by the checkpoint's local time (contract §4 checkpoint).
    expect(section(body, "Notes")).toMatch(/^- \d\d:\d\d Borrowing rules: one &mut or many &\.$/);
    const order = ["## Summary", "## Next action", "## Notes"].map((h) => body.indexOf(h));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("moves the draft to <vault>/.trash/ and leaves no draft in the sessions folder", () => {
    const draftId = /draft (DRAFT-S-[0-9a-f]{8})/.exec(out.start.stdout)?.[1] ?? "?";
    expect(draftFiles(vault)).toEqual([]);
    expect(trashFiles(vault)).toEqual([`${draftId}.md`]);
    const trashed = readText(vault, `.trash/${draftId}.md`);
    expect(trashed).toContain("Borrowing rules: one &mut or many &.");
  });

  it(
    "rewrites hot.md: active_topic kept, open-session fields cleared, last_session set, body " +
      "from the summary with its source",
    () => {
      const id = confirmedFiles(vault)[0].slice(0, -3);
      const { fields, body } = readRecord(vault, "palee/hot.md");
      expect(fields).toEqual({
        palee_schema: 1,
        memory_id: "H-active",
        active_topic: "T-rust-ownership",
        started_at: null,
        open_draft: null,
        device: null,
        last_session: id,
        updated_at: localDay(Date.now()),
      });
      expect(body).toContain("Learned the borrow checker basics.");
      expect(body).toContain("Read chapter 5 on structs.");
      expect(body.trimEnd().endsWith(`Source: [[${id}]]`)).toBe(true);
    },
  );

  it("writes index.md with the header, the total and one line in the contract format", () => {
    const id = confirmedFiles(vault)[0].slice(0, -3);
    const text = readText(vault, "palee/index.md");
    const { fields, body } = readRecord(vault, "palee/index.md");
    expect(fields).toEqual({ palee_schema: 1, type: "session_index", updated_at: localDay(Date.now()) });
    expect(body).toContain("# PALEE session index");
    expect(body).toContain("Total sessions: 1");
    const started = readRecord(vault, `palee/sessions/${id}.md`).fields.started_at as string;
    expect(indexLines(vault)).toEqual([`- [[${id}]] - Topic: T-rust-ownership (${started.slice(0, 10)}, 0 min)`]);
    expect(indexLines(vault)[0]).toMatch(
      /^- \[\[S-\d{8}T\d{6}-[0-9a-f]{4}\]\] - Topic: T-[\w.-]+ \(\d{4}-\d\d-\d\d, \d+ min\)$/,
    );
    expect(text.endsWith("\n")).toBe(true);
  });

  it("leaves only the expected files (no temp files)", () => {
    expect(sessionFiles(vault)).toEqual(confirmedFiles(vault));
    expect(tempFilesIn(vault)).toEqual([]);
  });
});

describe("full lifecycle (--json)", () => {
  it("returns the documents of contract §5 for start, draft, status, end and list", () => {
    const vault = makeVault();
    const start = palee(vault, ["start", "--topic", "T-sql", "--json"]);
    expect(start.status).toBe(0);
    const s = start.json();
    expect(Object.keys(s).sort()).toEqual([
      "draft_id",
      "last_session",
      "started_at",
      "status",
      "topic_id",
      "working_memory",
    ]);
    expect(s).toMatchObject({ status: "started", topic_id: "T-sql", last_session: null });
    expect(s.draft_id).toMatch(/^DRAFT-S-[0-9a-f]{8}$/);
    expectNearNow(s.started_at);
    expect(draftFiles(vault)).toEqual([`${String(s.draft_id)}.md`]);
    const draftFields = readRecord(vault, `palee/sessions/${String(s.draft_id)}.md`).fields;
    expect(draftFields).toEqual({
      palee_schema: 1,
      session_id: s.draft_id,
      topic_id: "T-sql",
      started_at: s.started_at,
      ended_at: null,
      status: "draft",
      last_checkpoint_at: s.started_at,
      device: DEVICE,
    });
    const hot = readRecord(vault, "palee/hot.md").fields;
    expect(hot).toMatchObject({
      active_topic: "T-sql",
      started_at: s.started_at,
      open_draft: s.draft_id,
      device: DEVICE,
    });

    const draft = palee(vault, ["draft", "--note", "joins", "--json"]);
    expect(draft.status).toBe(0);
    const d = draft.json();
    expect(d).toMatchObject({ status: "checkpointed", created: false });
    expect(Object.keys(d.draft as object).sort()).toEqual(D_KEYS);
    expect(d.draft).toMatchObject({
      draft_id: s.draft_id,
      topic_id: "T-sql",
      started_at: s.started_at,
      device: DEVICE,
      path: `palee/sessions/${String(s.draft_id)}.md`,
    });

    const status = palee(vault, ["status", "--json"]);
    expect(status.status).toBe(0);
    const o = status.json().open as Record<string, unknown>;
    expect(Object.keys(o).sort()).toEqual(O_KEYS);
    expect(o).toMatchObject({ topic_id: "T-sql", started_at: s.started_at, device: DEVICE, draft_id: s.draft_id });
    expect(o.elapsed_seconds).toEqual(expect.any(Number));

    const end = palee(vault, ["end", "--summary", "Joins", "--json"]);
    expect(end.status).toBe(0);
    const e = end.json();
    expect(Object.keys(e).sort()).toEqual(["absorbed_drafts", "session", "status", "warnings"]);
    expect(e).toMatchObject({ status: "ended", absorbed_drafts: [s.draft_id], warnings: [] });
    const session = e.session as Record<string, unknown>;
    expect(Object.keys(session).sort()).toEqual(S_KEYS);
    expect(session).toMatchObject({
      topic_id: "T-sql",
      started_at: s.started_at,
      duration_minutes: 0,
      outcome: "completed",
    });
    expect(session.path).toBe(`palee/sessions/${String(session.session_id)}.md`);

    const list = palee(vault, ["list", "--json"]);
    expect(list.status).toBe(0);
    // Version 3: list's S add the note's summary and next action (contract §5).
    const listed = { ...session, summary: "Joins", next_action: null };
    expect(list.json()).toEqual({ confirmed: [listed], drafts: [], total_confirmed: 1, total_drafts: 0, skipped: [] });

    expect(palee(vault, ["status", "--json"]).json()).toEqual({ open: null });
    const rebuilt = palee(vault, ["rebuild", "--json"]);
    expect(rebuilt.status).toBe(0);
    expect(rebuilt.json()).toEqual({ status: "rebuilt", total_confirmed: 1, skipped: [] });
  });

  it("status with no session says so and exits 0", () => {
    const vault = makeVault();
    const run = palee(vault, ["status"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("No open session.\n");
    expect(run.stderr).toBe("");
  });

  it("a second start on the ended topic reports the last session and its working memory", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const end = palee(vault, ["end", "--summary", "First pass", "--json"]).json();
    const id = (end.session as { session_id: string }).session_id;
    const again = palee(vault, ["start", "--json"]);
    expect(again.status).toBe(0);
    const doc = again.json();
    expect(doc).toMatchObject({ status: "started", topic_id: "T-a", last_session: id });
    expect(doc.working_memory).toContain("First pass");
    expect(doc.working_memory).toContain(`Source: [[${id}]]`);
  });
});

describe("--help", () => {
  it.each([[["--help"]], [["-h"]], [["session", "--help"]], [["session", "start", "--help"]]])(
    "prints the usage and exits 0 for %j",
    (args) => {
      const run = runRaw(args);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(
        new RegExp(
          /^Usage: palee session <start\|draft\|end\|list\|status\|recover\|rebuild\|/.source +
            /pause\|continue\|log\|stats\|export\|context\|show\|latest\|hook\|goal\|year\|next> \[options\]/.source,
        ),
      );
      for (const option of [
        "--vault",
        "--folder",
        "--topic",
        "--summary",
        "--next",
        "--note",
        "--interactive",
        "--if-open",
        "--draft",
        "--action",
        "--all",
        "--json",
      ]) {
        expect(run.stdout).toContain(option);
      }
      expect(run.stderr).toBe("");
    },
  );
});

describe("output says what happened", () => {
  it(
    "marks the open session's draft in list, says when a checkpoint opened a session, and " +
      "names an already saved draft",
    () => {
      const vault = makeVault();
      const draft = palee(vault, ["draft", "--topic", "T-a", "--note", "first"]);
      expect(draft.status).toBe(0);
      expect(draft.stdout).toContain("this draft is now the open session");
      const listed = palee(vault, ["list"]);
      expect(listed.stdout).toMatch(/DRAFT-S-[0-9a-f]{8} .*\(open session\)/);
      const id = /DRAFT-S-[0-9a-f]{8}/.exec(draft.stdout)?.[0] ?? "";
      expect(palee(vault, ["end", "--summary", "done"]).status).toBe(0);
      const again = palee(vault, ["recover", "--draft", id, "--action", "ignore"]);
      expect(again.status).toBe(0);
      expect(again.stdout).toMatch(
        new RegExp(`^${id} was already saved as S-[0-9T]+-[0-9a-f]{4}; nothing more to do[.]\\n$`),
      );
    },
  );
});
