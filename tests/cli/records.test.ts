/**
 * CLI end-to-end: how records on disk are read (contract §3): hot.md variants at start, skipped session files,
 * ordering by recorded data only, and the read-only commands (list, status) that never change a byte.
 */
import {
  ago,
  cleanupVaults,
  confirmedText,
  DEVICE,
  draftId,
  indexLines,
  lines,
  makeVault,
  palee,
  parseRecord,
  readRecord,
  readText,
  section,
  snapshot,
  touch,
  writeConfirmed,
  writeDraft,
  writeFile,
  writeHot,
} from "./support";

afterEach(cleanupVaults);

const NEWEST = "S-20260814T090000-0001";
const OLDER = "S-20260813T090000-0002";

/** Two confirmed sessions of T-a; the newest has a summary and a next action. */
function withHistory(): string {
  const vault = makeVault();
  writeConfirmed(vault, {
    id: OLDER,
    topic: "T-a",
    startedAt: "2026-08-13T09:00:00+00:00",
    endedAt: "2026-08-13T09:20:00+00:00",
    duration: 20,
    summary: "Old summary.",
  });
  writeConfirmed(vault, {
    id: NEWEST,
    topic: "T-a",
    startedAt: "2026-08-14T09:00:00+00:00",
    endedAt: "2026-08-14T09:45:00+00:00",
    duration: 45,
    summary: "Newest summary text.",
    next: "Newest next action.",
  });
  return vault;
}

describe("hot.md variants at start", () => {
  it.each([
    ["corrupt YAML", "---\nfoo: [unclosed\n---\n"],
    ["schema 2", "---\npalee_schema: 2\nmemory_id: H-active\nactive_topic: T-zzz\n---\nFrom the future.\n"],
    ["schema missing", "---\nactive_topic: T-a\n---\nbody\n"],
    ['schema "1" as a string', '---\npalee_schema: "1"\nactive_topic: T-a\n---\nbody\n'],
  ])("rebuilds a hot.md with %s: frontmatter palee_schema 1, body the started topic's memory", (_name, content) => {
    const vault = withHistory();
    writeFile(vault, "palee/hot.md", content);
    const run = palee(vault, ["start", "--topic", "T-a", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    const { fields, body } = readRecord(vault, "palee/hot.md");
    expect(fields).toMatchObject({
      palee_schema: 1,
      memory_id: "H-active",
      active_topic: "T-a",
      open_draft: doc.draft_id,
      started_at: doc.started_at,
      device: DEVICE,
      last_session: NEWEST,
    });
    expect(body).toContain("Newest summary text.");
    expect(body).toContain("Newest next action.");
    expect(body).not.toContain("Old summary.");
    expect(body.trimEnd().endsWith(`Source: [[${NEWEST}]]`)).toBe(true);
    expect(body).not.toContain("From the future.");
  });

  it("keeps a hot.md without frontmatter byte for byte below the new frontmatter", () => {
    const vault = withHistory();
    const own = "my own notes";
    writeFile(vault, "palee/hot.md", own);
    const run = palee(vault, ["start", "--topic", "T-b", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    const text = readText(vault, "palee/hot.md");
    const { fields, body } = parseRecord(text);
    expect(body).toBe(own);
    expect(text.endsWith(`\n---\n${own}`)).toBe(true);
    expect(fields).toMatchObject({ palee_schema: 1, active_topic: "T-b", open_draft: doc.draft_id, device: DEVICE });
    expect(doc.working_memory).toBe(own);
  });

  it("keeps a multi-line hot.md without frontmatter byte for byte", () => {
    const vault = makeVault();
    const own = "# My memory\n\nline one  \n\tline two\n\n";
    writeFile(vault, "palee/hot.md", own);
    expect(palee(vault, ["start", "--topic", "T-b"]).status).toBe(0);
    expect(parseRecord(readText(vault, "palee/hot.md")).body).toBe(own);
  });

  it.each([
    ["corrupt", "---\nactive_topic: [T-a\n---\n", ["start", "draft", "end"]],
    ["schema 2", "---\npalee_schema: 2\nactive_topic: T-a\n---\n", ["start", "end"]],
    ["schema missing", "---\nactive_topic: T-a\n---\n", ["draft"]],
    ["no frontmatter", "active_topic: T-a\n", ["start"]],
  ])("treats a %s hot.md as no topic: %j exit 2 without --topic", (_name, content, actions) => {
    const vault = makeVault();
    writeFile(vault, "palee/hot.md", content);
    for (const action of actions) {
      const run = palee(vault, [action, "--json"]);
      expect({ action, status: run.status }).toEqual({ action, status: 2 });
      expect(run.json()).toMatchObject({ status: "error", code: "topic_required" });
    }
    expect(readText(vault, "palee/hot.md")).toBe(content);
  });

  it("treats an active_topic of (none) as no topic", () => {
    const vault = makeVault();
    writeHot(vault, { activeTopic: " (None) " });
    const run = palee(vault, ["start", "--json"]);
    expect(run.status).toBe(2);
    expect(run.json()).toMatchObject({ code: "topic_required" });
  });

  it("uses an ok hot.md's active_topic when --topic is absent", () => {
    const vault = makeVault();
    writeHot(vault, { activeTopic: "T-from-hot" });
    const run = palee(vault, ["start", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({ status: "started", topic_id: "T-from-hot" });
  });

  it("status warns about a corrupt hot.md and still answers", () => {
    const vault = makeVault();
    writeFile(vault, "palee/hot.md", "---\nfoo: [unclosed\n---\n");
    const run = palee(vault, ["status", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toEqual({ open: null });
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/^warning: palee\/hot\.md is corrupt/);
  });
});

describe("session files that cannot be used are skipped by name, never deleted", () => {
  const ZERO = "palee/sessions/S-20260801T000000-0000.md";
  const CORRUPT = "palee/sessions/S-20260802T000000-0000.md";
  const FOREIGN = "palee/sessions/S-20260803T000000-0000.md";
  const NOT_SESSION = "palee/sessions/my notes.md";
  const BAD_DRAFT = "palee/sessions/DRAFT-S-00000bad.md";

  function withBadFiles(): string {
    const vault = withHistory();
    writeFile(vault, ZERO, "");
    writeFile(vault, CORRUPT, "---\nsession_id: [broken\n---\n# x\n");
    writeFile(
      vault,
      FOREIGN,
      confirmedText({
        id: "S-20260803T000000-0000",
        topic: "T-a",
        startedAt: "2026-08-03T00:00:00Z",
        endedAt: "2026-08-03T01:00:00Z",
        duration: 60,
      }).replace("palee_schema: 1", "palee_schema: 2"),
    );
    writeFile(vault, NOT_SESSION, "# Just a note\n");
    writeFile(vault, BAD_DRAFT, "---\npalee_schema: 2\nsession_id: DRAFT-S-00000bad\n---\n");
    return vault;
  }

  const SKIPPED = [BAD_DRAFT, ZERO, CORRUPT, FOREIGN, NOT_SESSION];

  it("list --json names each skipped file with a reason, lists the good sessions, and changes no byte", () => {
    const vault = withBadFiles();
    const before = snapshot(vault, { mtimes: true });
    const run = palee(vault, ["list", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    expect((doc.confirmed as Array<{ session_id: string }>).map((s) => s.session_id)).toEqual([NEWEST, OLDER]);
    expect(doc.total_confirmed).toBe(2);
    expect(doc.drafts).toEqual([]);
    const skipped = doc.skipped as Array<{ path: string; reason: string }>;
    expect(skipped.map((s) => s.path).sort()).toEqual([...SKIPPED].sort());
    for (const s of skipped) {
      expect(Object.keys(s).sort()).toEqual(["path", "reason"]);
      expect(s.reason.length).toBeGreaterThan(0);
    }
    const reason = (p: string) => skipped.find((s) => s.path === p)?.reason ?? "";
    expect(reason(ZERO)).toMatch(/empty/);
    expect(reason(FOREIGN)).toMatch(/palee_schema 2/);
    expect(reason(CORRUPT)).toMatch(/YAML|parse/);
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });

  it("list in text mode prints one warning line on stderr per skipped file, naming it", () => {
    const vault = withBadFiles();
    const run = palee(vault, ["list"]);
    expect(run.status).toBe(0);
    const warnings = lines(run.stderr);
    expect(warnings).toHaveLength(SKIPPED.length);
    for (const p of SKIPPED) expect(warnings.filter((w) => w.startsWith(`warning: skipped ${p}: `))).toHaveLength(1);
    expect(run.stdout).toContain("Confirmed sessions: 2");
    expect(run.stdout).toContain(NEWEST);
  });

  it("rebuild skips them by name, leaves them byte-identical, and indexes the good sessions", () => {
    const vault = withBadFiles();
    const before = snapshot(vault);
    const json = palee(vault, ["rebuild", "--json"]);
    expect(json.status).toBe(0);
    const doc = json.json();
    expect(doc.status).toBe("rebuilt");
    expect(doc.total_confirmed).toBe(2);
    expect((doc.skipped as Array<{ path: string }>).map((s) => s.path).sort()).toEqual([...SKIPPED].sort());
    const text = palee(vault, ["rebuild"]);
    expect(text.status).toBe(0);
    for (const p of SKIPPED) expect(text.stderr).toContain(`warning: skipped ${p}: `);
    const after = snapshot(vault);
    for (const p of [...SKIPPED, `palee/sessions/${NEWEST}.md`, `palee/sessions/${OLDER}.md`])
      expect(after[p]).toEqual(before[p]);
    // A rebuild writes hot.md and index.md and nothing else.
    const changed = Object.keys(after).filter((p) => JSON.stringify(after[p]) !== JSON.stringify(before[p]));
    expect(changed.sort()).toEqual(["palee/hot.md", "palee/index.md"]);
    expect(indexLines(vault)).toEqual([
      `- [[${NEWEST}]] - Topic: T-a (2026-08-14, 45 min)`,
      `- [[${OLDER}]] - Topic: T-a (2026-08-13, 20 min)`,
    ]);
    expect(readText(vault, "palee/index.md")).toContain("Total sessions: 2");
    expect(readRecord(vault, "palee/hot.md").fields.last_session).toBe(NEWEST);
  });

  it("start and end still work beside them and leave them byte-identical", () => {
    const vault = withBadFiles();
    const before = snapshot(vault);
    const start = palee(vault, ["start", "--topic", "T-b"]);
    expect(start.status).toBe(0);
    const end = palee(vault, ["end", "--summary", "ok", "--json"]);
    expect(end.status).toBe(0);
    const after = snapshot(vault);
    for (const p of SKIPPED) expect(after[p]).toEqual(before[p]);
    expect(indexLines(vault)).toHaveLength(3);
  });
});

describe("ordering depends only on recorded started_at, then session_id", () => {
  // A: 10:00 at +05:30 = 04:30 UTC, B: 06:00 UTC. A is earlier although its local clock time is later and
  // its (legacy, locally computed) ID sorts after B's.
  const A = "S-20260814T100000-aaaa";
  const B = "S-20260814T060000-bbbb";
  // C and D start at the same instant, written in two offsets: the tie is broken by session_id.
  const C = "S-20260814T120000-0001";
  const D = "S-20260814T120000-0002";
  // E: the oldest, but its file is made the newest by mtime.
  const E = "S-20260101T000000-eeee";

  function withOrderingFixture(): string {
    const vault = makeVault();
    writeConfirmed(vault, {
      id: E,
      topic: "T-e",
      startedAt: "2026-01-01T00:00:00+00:00",
      endedAt: "2026-01-01T00:05:00+00:00",
      duration: 5,
    });
    writeConfirmed(vault, {
      id: D,
      topic: "T-d",
      startedAt: "2026-08-14T14:00:00+02:00",
      endedAt: "2026-08-14T14:10:00+02:00",
      duration: 10,
      summary: "D summary",
    });
    writeConfirmed(vault, {
      id: C,
      topic: "T-c",
      startedAt: "2026-08-14T12:00:00Z",
      endedAt: "2026-08-14T12:10:00Z",
      duration: 10,
      summary: "C summary",
    });
    writeConfirmed(vault, {
      id: A,
      topic: "T-a",
      startedAt: "2026-08-14T10:00:00+05:30",
      endedAt: "2026-08-14T10:30:00+05:30",
      duration: 30,
    });
    writeConfirmed(vault, {
      id: B,
      topic: "T-b",
      startedAt: "2026-08-14T06:00:00+00:00",
      endedAt: "2026-08-14T06:30:00+00:00",
      duration: 30,
    });
    // File times in the opposite order of the recorded times.
    touch(vault, `palee/sessions/${E}.md`, 0);
    touch(vault, `palee/sessions/${A}.md`, 10);
    touch(vault, `palee/sessions/${B}.md`, 20);
    touch(vault, `palee/sessions/${C}.md`, 30);
    touch(vault, `palee/sessions/${D}.md`, 40);
    return vault;
  }

  const EXPECTED = [D, C, B, A, E];

  it(
    "list (--json and text) is newest first by started_at across offsets, ties by session_id, " +
      "whatever the file times",
    () => {
      const vault = withOrderingFixture();
      const json = palee(vault, ["list", "--json"]);
      expect(json.status).toBe(0);
      expect((json.json().confirmed as Array<{ session_id: string }>).map((s) => s.session_id)).toEqual(EXPECTED);
      const text = palee(vault, ["list"]);
      const order = lines(text.stdout)
        .map((l) => /^ {2}(S-\S+)/.exec(l)?.[1])
        .filter((x): x is string => x !== undefined);
      expect(order).toEqual(EXPECTED);
    },
  );

  it("index.md and hot.md follow the same order after rebuild, and again after the files are touched", () => {
    const vault = withOrderingFixture();
    expect(palee(vault, ["rebuild"]).status).toBe(0);
    const expectedLines = [
      `- [[${D}]] - Topic: T-d (2026-08-14, 10 min)`,
      `- [[${C}]] - Topic: T-c (2026-08-14, 10 min)`,
      `- [[${B}]] - Topic: T-b (2026-08-14, 30 min)`,
      `- [[${A}]] - Topic: T-a (2026-08-14, 30 min)`,
      `- [[${E}]] - Topic: T-e (2026-01-01, 5 min)`,
    ];
    expect(indexLines(vault)).toEqual(expectedLines);
    expect(readRecord(vault, "palee/hot.md").fields.last_session).toBe(D);
    expect(readRecord(vault, "palee/hot.md").body).toContain("D summary");

    for (const [i, id] of [...EXPECTED].reverse().entries()) touch(vault, `palee/sessions/${id}.md`, 100 - i);
    expect(palee(vault, ["rebuild"]).status).toBe(0);
    expect(indexLines(vault)).toEqual(expectedLines);
    expect(readRecord(vault, "palee/hot.md").fields.last_session).toBe(D);
  });

  it("list shows the 10 newest by default and every session with --all", () => {
    const vault = makeVault();
    const ids: string[] = [];
    for (let day = 1; day <= 12; day++) {
      const d = String(day).padStart(2, "0");
      const id = `S-202608${d}T090000-00${d}`;
      ids.push(id);
      writeConfirmed(vault, {
        id,
        topic: "T-a",
        startedAt: `2026-08-${d}T09:00:00Z`,
        endedAt: `2026-08-${d}T09:10:00Z`,
        duration: 10,
      });
      touch(vault, `palee/sessions/${id}.md`, day);
    }
    const newestFirst = [...ids].reverse();
    const ten = palee(vault, ["list", "--json"]).json();
    expect((ten.confirmed as Array<{ session_id: string }>).map((s) => s.session_id)).toEqual(newestFirst.slice(0, 10));
    expect(ten.total_confirmed).toBe(12);
    const all = palee(vault, ["list", "--all", "--json"]).json();
    expect((all.confirmed as Array<{ session_id: string }>).map((s) => s.session_id)).toEqual(newestFirst);
  });
});

describe("list and status change no byte on disk", () => {
  function busyVault(): string {
    const vault = withHistory();
    const open = draftId("00000001");
    writeDraft(vault, { id: open, topic: "T-a", startedAt: ago(30), lastCheckpointAt: ago(2), body: "open notes\n" });
    writeDraft(vault, {
      id: draftId("00000002"),
      topic: "T-b",
      startedAt: ago(300),
      lastCheckpointAt: ago(200),
      device: "phone",
    });
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(30), openDraft: open, device: DEVICE, lastSession: NEWEST });
    writeFile(vault, "palee/sessions/S-20260802T000000-0000.md", "");
    writeFile(vault, "palee/sessions/S-20260803T000000-0000.md", "---\npalee_schema: 2\n---\n");
    writeFile(vault, "palee/sessions/notes.md", "hello\n");
    // index.md is absent: reading must not create it.
    return vault;
  }

  it("list, list --json, list --all, status and status --json with drafts, an open session and skipped files", () => {
    const vault = busyVault();
    const before = snapshot(vault, { mtimes: true });
    for (const args of [["list"], ["list", "--json"], ["list", "--all"], ["status"], ["status", "--json"]]) {
      const run = palee(vault, args);
      expect({ args, status: run.status }).toEqual({ args, status: 0 });
      expect(snapshot(vault, { mtimes: true })).toEqual(before);
    }
  });

  it("list and status with a corrupt hot.md and an empty vault", () => {
    const vault = busyVault();
    writeFile(vault, "palee/hot.md", "---\nfoo: [unclosed\n---\n");
    const before = snapshot(vault, { mtimes: true });
    expect(palee(vault, ["list"]).status).toBe(0);
    expect(palee(vault, ["status"]).status).toBe(0);
    expect(snapshot(vault, { mtimes: true })).toEqual(before);

    const empty = makeVault();
    expect(palee(empty, ["list"]).status).toBe(0);
    expect(palee(empty, ["status", "--json"]).status).toBe(0);
    expect(snapshot(empty, { mtimes: true })).toEqual({});
  });

  it("status reports the open session from hot.md and its draft", () => {
    const vault = busyVault();
    const doc = palee(vault, ["status", "--json"]).json();
    expect(doc.open).toMatchObject({ topic_id: "T-a", draft_id: draftId("00000001"), device: DEVICE });
  });
});

describe("text from notes cannot break the derived views", () => {
  it("renders a legacy topic ID with link and table characters escaped in index.md", () => {
    const vault = makeVault();
    writeFile(
      vault,
      "palee/sessions/S-20260814T090000-0001.md",
      confirmedText({
        id: "S-20260814T090000-0001",
        topic: "T-x",
        startedAt: "2026-08-14T09:00:00Z",
        endedAt: "2026-08-14T09:10:00Z",
        duration: 10,
      }).replace("topic_id: T-x", 'topic_id: "git]] | [[evil"'),
    );
    expect(palee(vault, ["rebuild"]).status).toBe(0);
    const [line] = indexLines(vault);
    expect(line.startsWith("- [[S-20260814T090000-0001]] - Topic: ")).toBe(true);
    const topicPart = line.slice("- [[S-20260814T090000-0001]] - Topic: ".length);
    expect(topicPart).not.toMatch(/(^|[^\\])(\[\[|\]\]|\|)/);
    expect(topicPart.endsWith("(2026-08-14, 10 min)")).toBe(true);
  });

  it("keeps hot.md's body within 250 words after a very long summary", () => {
    const vault = makeVault();
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(palee(vault, ["end", "--summary", long, "--next", "next step"]).status).toBe(0);
    const { body } = readRecord(vault, "palee/hot.md");
    expect(body.match(/\S+/g)?.length ?? 0).toBeLessThanOrEqual(250);
    expect(body.trimEnd()).toMatch(/Source: \[\[S-\d{8}T\d{6}-[0-9a-f]{4}\]\]$/);
    // The confirmed note keeps the whole summary.
    const [file] = readText(vault, "palee/index.md").match(/S-\d{8}T\d{6}-[0-9a-f]{4}/) ?? [];
    expect(section(readRecord(vault, `palee/sessions/${file}.md`).body, "Summary")).toBe(long);
  });
});
