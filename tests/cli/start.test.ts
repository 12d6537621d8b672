/**
 * `palee session start` refusals and their ways out (contract §4 start, §5): --ignore-pending, a topic checked
 * before anything else, and an "already open" answer that suggests only what works on this device.
 */
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  draftId,
  expectCleanError,
  makeVault,
  palee,
  readRecord,
  readText,
  snapshot,
  writeDraft,
  writeHot,
} from "./support";

afterEach(cleanupVaults);

const OLD = draftId("0000000a");

/** A vault holding one interrupted draft of this device (checkpointed 3 hours ago). */
function vaultWithInterruptedDraft(): { vault: string; path: string; text: string } {
  const vault = makeVault();
  const path = writeDraft(vault, {
    id: OLD,
    topic: "T-a",
    startedAt: ago(200),
    lastCheckpointAt: ago(180),
    body: "old notes\n",
  });
  return { vault, path, text: readText(vault, path) };
}

describe("start --ignore-pending", () => {
  it("the drafts_pending refusal names it (and no longer offers the CLI's do-nothing ignore)", () => {
    const { vault } = vaultWithInterruptedDraft();
    const run = palee(vault, ["start", "--topic", "T-b"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain('"palee session start --ignore-pending"');
    expect(run.stderr).toContain("--action <resume|save|discard>");
  });

  it("starts while leaving the pending draft exactly as it is; end then ends only the new session", () => {
    const { vault, path, text } = vaultWithInterruptedDraft();
    // Before the fix, recover --action ignore changed nothing, so every plain start kept refusing.
    const run = palee(vault, ["start", "--topic", "T-a", "--ignore-pending", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(doc).toMatchObject({ status: "started", topic_id: "T-a" });
    expect(readText(vault, path)).toBe(text);
    expect(draftFiles(vault)).toEqual([`${OLD}.md`, `${doc.draft_id as string}.md`].sort());
    expect(readRecord(vault, "palee/hot.md").fields.open_draft).toBe(doc.draft_id);

    const end = palee(vault, ["end", "--summary", "new work"]);
    expect(end.status).toBe(0);
    expect(end.stderr).toContain(`left ${OLD} alone`);
    expect(readText(vault, path)).toBe(text);
    const saved = readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`);
    expect(saved.fields.absorbed_drafts).toEqual([doc.draft_id]);
  });

  it("still refuses when a session is already open (it is about pending drafts only)", () => {
    const { vault } = vaultWithInterruptedDraft();
    expect(palee(vault, ["start", "--topic", "T-a", "--ignore-pending"]).status).toBe(0);
    const again = palee(vault, ["start", "--topic", "T-b", "--ignore-pending", "--json"]);
    expect(again.status).toBe(2);
    expect(again.json().status).toBe("already_open");
  });

  it("does not apply to other actions", () => {
    const vault = makeVault();
    const run = palee(vault, ["list", "--ignore-pending"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain('--ignore-pending does not apply to "session list"');
  });

  it("recover --action ignore says how to start anyway", () => {
    const { vault, path, text } = vaultWithInterruptedDraft();
    const run = palee(vault, ["recover", "--draft", OLD, "--action", "ignore"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      `Left ${OLD} as it is; "palee session start --ignore-pending" starts a new session while it waits.\n`,
    );
    expect(readText(vault, path)).toBe(text);
  });
});

describe("start validates an explicit topic first", () => {
  it("refuses an invalid topic with --if-open keep while a session is open (not 'kept', exit 0)", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const before = snapshot(vault);
    // Observed before the fix: exit 0, {"status":"kept"}.
    const run = palee(vault, ["start", "--topic", "t-lower", "--if-open", "keep", "--json"]);
    expectCleanError(run, 2, { json: true, code: "invalid_topic" });
    expect(palee(vault, ["start", "--topic", "t-lower"]).stderr).toMatch(/t-lower/);
    expect(snapshot(vault)).toEqual(before);
  });

  it("refuses an invalid topic before reporting pending drafts", () => {
    const { vault } = vaultWithInterruptedDraft();
    expectCleanError(palee(vault, ["start", "--topic", "t-lower", "--json"]), 2, { json: true, code: "invalid_topic" });
  });

  it("'(none)' still means no topic", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(palee(vault, ["start", "--topic", "(none)", "--if-open", "keep", "--json"]).json().status).toBe("kept");
  });
});

describe("already open on another device", () => {
  const PHONE_DRAFT = draftId("0000000b");

  it("suggests ending it there or saving that draft here, never a plain end (which refuses here)", () => {
    const vault = makeVault();
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(30), openDraft: PHONE_DRAFT, device: "phone" });
    writeDraft(vault, { id: PHONE_DRAFT, topic: "T-a", startedAt: ago(30), lastCheckpointAt: ago(2), device: "phone" });
    const run = palee(vault, ["start", "--topic", "T-b"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain("end it on phone");
    expect(run.stderr).not.toContain('"palee session end"');
    expect(run.stderr).toContain(`"palee session recover --draft ${PHONE_DRAFT} --action save"`);

    // What was not suggested indeed refuses; what was suggested works.
    expectCleanError(palee(vault, ["end", "--json"]), 2, { json: true, code: "session_open_elsewhere" });
    const save = palee(vault, ["recover", "--draft", PHONE_DRAFT, "--action", "save", "--json"]);
    expect(save.status).toBe(0);
    expect(save.json().status).toBe("saved");
  });

  it("whose draft has not synced here: suggests ending it there or keeping it", () => {
    const vault = makeVault();
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(5), openDraft: PHONE_DRAFT, device: "phone" });
    const run = palee(vault, ["start", "--topic", "T-b"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain("end it on phone (its draft has not synced here), or --if-open keep leaves it");
    expect(run.stderr).not.toContain("palee session end");
    expect(run.stderr).not.toContain("recover");
  });

  it("on this device, still suggests palee session end", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const run = palee(vault, ["start", "--topic", "T-b"]);
    expect(run.stderr).toContain('"palee session end" ends it now');
  });

  it("next to a paused session, says that end ends it at the pause, not now (contract §4 pause)", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(palee(vault, ["pause"]).status).toBe(0);
    const pausedAt = readRecord(vault, `palee/sessions/${draftFiles(vault)[0]}`).fields.paused_at as string;
    const run = palee(vault, ["start", "--topic", "T-b"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain(`paused since ${pausedAt}`);
    expect(run.stderr).toContain(`"palee session end" ends it at the pause (${pausedAt})`);
    expect(run.stderr).toContain(`--action save" ends it at the pause (${pausedAt})`);
    expect(run.stderr).not.toContain("ends it now");
  });
});

describe("start shows the started topic's working memory (contract §2 hot.md, version 3)", () => {
  /** Three topics, the newest session SQL's; Rust's own newest session was logged without summary or next. */
  function threeTopics(): string {
    const vault = makeVault();
    const log = (topic: string, from: number, extra: string[]): void => {
      const run = palee(vault, ["log", "--topic", topic, "--from", ago(from), "--to", ago(from - 30), ...extra]);
      expect(run.status).toBe(0);
    };
    log("T-rust", 600, ["--summary", "Borrowing rules", "--next", "Read chapter 5 on structs"]);
    log("T-sql", 500, ["--summary", "Joins", "--next", "Practise LEFT JOIN"]);
    log("T-rust", 400, []);
    log("T-go", 300, ["--summary", "Goroutines", "--next", "Channels"]);
    log("T-sql", 200, ["--summary", "Indexes"]);
    return vault;
  }

  it("in text: the Rust memory with its carried next action, none of SQL's", () => {
    const vault = threeTopics();
    const run = palee(vault, ["start", "--topic", "T-rust"]);
    expect(run.status).toBe(0);
    const memory = run.stdout.slice(run.stdout.indexOf("Working memory:\n") + "Working memory:\n".length);
    expect(memory).toMatch(/^Topic: T-rust, newest session \d{4}-\d{2}-\d{2}\n/);
    expect(memory).toMatch(/## Next action \(from \d{4}-\d{2}-\d{2}\)\n\nRead chapter 5 on structs\n/);
    expect(memory).not.toMatch(/Joins|Indexes|LEFT JOIN|Goroutines/);
    expect(memory.match(/^Source: \[\[S-/gm)).toHaveLength(2);
  });

  it("in JSON: working_memory is the started topic's, last_session the newest overall", () => {
    const vault = threeTopics();
    const newest = palee(vault, ["list", "--json"]).json();
    const run = palee(vault, ["start", "--topic", "T-rust", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(String(doc.working_memory)).toMatch(/^Topic: T-rust, /);
    expect(String(doc.working_memory)).toContain("Read chapter 5 on structs");
    expect(String(doc.working_memory)).not.toContain("Indexes");
    const sessions = newest.confirmed as Array<{ session_id: string; topic_id: string }>;
    expect(sessions[0].topic_id).toBe("T-sql");
    expect(doc.last_session).toBe(sessions[0].session_id);
  });

  it("a topic with no session yet: one line naming it", () => {
    const vault = threeTopics();
    const doc = palee(vault, ["start", "--topic", "T-new", "--json"]).json();
    expect(doc.working_memory).toBe("No sessions on T-new yet: end a session on it to start its working memory.");
  });
});
