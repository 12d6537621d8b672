/**
 * CLI end-to-end: recovery of interrupted drafts (contract §4 recover, reconcile) through `recover --draft
 * --action` and through `start -i` with answers on stdin.
 */
import * as fs from "node:fs";
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  DEVICE,
  draftFiles,
  draftId,
  draftText,
  expectCleanError,
  expectNearNow,
  indexLines,
  makeVault,
  palee,
  readRecord,
  readText,
  section,
  snapshot,
  trashFiles,
  utcCompact,
  writeConfirmed,
  writeDraft,
  writeFile,
  writeHot,
} from "./support";

afterEach(cleanupVaults);

const ID = draftId("5a5a5a5a");
const NOTES = "What I had written before the crash.\n\n- point one\n- point two\n";

/** An interrupted draft of T-a: started 3 h ago, last checkpoint 2 h ago, from another device. */
function interrupted(): { vault: string; startedAt: string; lastCheckpointAt: string; path: string } {
  const vault = makeVault();
  const startedAt = ago(180);
  const lastCheckpointAt = ago(120);
  const path = writeDraft(vault, {
    id: ID,
    topic: "T-a",
    startedAt,
    lastCheckpointAt,
    device: "old-laptop",
    body: NOTES,
  });
  return { vault, startedAt, lastCheckpointAt, path };
}

describe("recover --draft X --action …", () => {
  it("resume: hot.md points at the draft; status shows it open with elapsed time from its original start", () => {
    const { vault, startedAt, path } = interrupted();
    const run = palee(vault, ["recover", "--draft", ID, "--action", "resume", "--json"]);
    // Version 3: the two silent hours are recorded as time away, and said so (contract §4 recover).
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^Away \d\d:\d\d–\d\d:\d\d, not counted \(2 h recorded as a break\)\.\n$/);
    expect(run.json()).toMatchObject({ status: "resumed", draft_id: ID, away: { minutes: 120 } });
    const hot = readRecord(vault, "palee/hot.md").fields;
    expect(hot).toMatchObject({
      palee_schema: 1,
      active_topic: "T-a",
      started_at: startedAt,
      open_draft: ID,
      device: DEVICE,
    });
    // The draft is kept (its body byte for byte) and remains the record of the session.
    expect(draftFiles(vault)).toEqual([`${ID}.md`]);
    const draft = readRecord(vault, path);
    expect(draft.body).toBe(NOTES);
    expect(draft.fields.started_at).toBe(startedAt);

    const status = palee(vault, ["status", "--json"]);
    expect(status.status).toBe(0);
    const open = status.json().open as Record<string, unknown>;
    expect(open).toMatchObject({ topic_id: "T-a", started_at: startedAt, draft_id: ID, device: DEVICE });
    // Version 2: the two silent hours before the resume are time away (a break), not study time.
    const elapsed = open.elapsed_seconds as number;
    expect(open.break_minutes).toBe(120);
    expect(elapsed).toBeGreaterThanOrEqual(60 * 60 - 60);
    expect(elapsed).toBeLessThan(60 * 60 + 60);
    const text = palee(vault, ["status"]);
    expect(text.stdout).toMatch(/Elapsed: (0:59|1:00):\d\d studied, 2 h of breaks not counted/);

    // Ending it now records the time since the original start, less the time away.
    const end = palee(vault, ["end", "--summary", "done", "--json"]);
    expect(end.status).toBe(0);
    expect(end.json()).toMatchObject({
      status: "ended",
      absorbed_drafts: [ID],
      session: { started_at: startedAt, duration_minutes: 60, break_minutes: 120 },
    });
  });

  it("resume is refused while another session is open (exit 2), changing nothing", () => {
    const { vault } = interrupted();
    const other = draftId("0e0e0e0e");
    writeDraft(vault, { id: other, topic: "T-b", startedAt: ago(10), lastCheckpointAt: ago(1) });
    writeHot(vault, { activeTopic: "T-b", startedAt: ago(10), openDraft: other, device: DEVICE });
    const before = snapshot(vault, { mtimes: true });
    const run = palee(vault, ["recover", "--draft", ID, "--action", "resume"]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("already open");
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });

  it(
    "save: a confirmed note with outcome interrupted, ended at the last checkpoint (3 h − 2 h " +
      "→ 60 min), draft trashed, index rebuilt",
    () => {
      const { vault, startedAt, lastCheckpointAt } = interrupted();
      const run = palee(vault, ["recover", "--draft", ID, "--action", "save", "--json"]);
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
      const doc = run.json();
      expect(Object.keys(doc).sort()).toEqual(["draft_id", "session", "status"]);
      const session = doc.session as Record<string, unknown>;
      expect(doc).toMatchObject({ status: "saved", draft_id: ID });
      expect(session).toMatchObject({
        topic_id: "T-a",
        started_at: startedAt,
        ended_at: lastCheckpointAt,
        duration_minutes: 60,
        outcome: "interrupted",
      });
      const id = String(session.session_id);
      expect(id).toMatch(new RegExp(`^S-${utcCompact(Date.parse(startedAt))}-[0-9a-f]{4}$`));
      expect(confirmedFiles(vault)).toEqual([`${id}.md`]);
      const { fields, body } = readRecord(vault, `palee/sessions/${id}.md`);
      expect(fields).toEqual({
        palee_schema: 1,
        session_id: id,
        topic_id: "T-a",
        started_at: startedAt,
        ended_at: lastCheckpointAt,
        duration_minutes: 60,
        status: "completed",
        outcome: "interrupted",
        absorbed_drafts: [ID],
      });
      expect(section(body, "Notes")).toBe(NOTES.trim());
      expect(draftFiles(vault)).toEqual([]);
      expect(trashFiles(vault)).toEqual([`${ID}.md`]);
      expect(indexLines(vault)).toEqual([`- [[${id}]] - Topic: T-a (${startedAt.slice(0, 10)}, 60 min)`]);
      expect(readRecord(vault, "palee/hot.md").fields.last_session).toBe(id);
    },
  );

  it("save in text mode prints the new session and its duration", () => {
    const { vault } = interrupted();
    const run = palee(vault, ["recover", "--draft", ID, "--action", "save"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^Saved ${ID} as S-\\d{8}T\\d{6}-[0-9a-f]{4}: T-a, 1 h \\(interrupted\\)\\.`),
    );
  });

  it("discard: the draft goes to .trash/ byte for byte, no confirmed note is written", () => {
    const { vault, path } = interrupted();
    const original = readText(vault, path);
    const run = palee(vault, ["recover", "--draft", ID, "--action", "discard", "--json"]);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(run.json()).toEqual({ status: "discarded", draft_id: ID });
    expect(draftFiles(vault)).toEqual([]);
    expect(confirmedFiles(vault)).toEqual([]);
    expect(trashFiles(vault)).toEqual([`${ID}.md`]);
    expect(readText(vault, `.trash/${ID}.md`)).toBe(original);
  });

  it("discard never overwrites a file of the same name already in the trash", () => {
    const { vault, path } = interrupted();
    const original = readText(vault, path);
    // An older file with the same name is already in the trash.
    const older = draftText({ id: ID, topic: "T-old", startedAt: ago(900), lastCheckpointAt: ago(899) });
    writeFile(vault, `.trash/${ID}.md`, older);
    const run = palee(vault, ["recover", "--draft", ID, "--action", "discard"]);
    expect(run.status).toBe(0);
    const trashed = trashFiles(vault);
    expect(trashed).toHaveLength(2);
    expect(readText(vault, `.trash/${ID}.md`)).toBe(older);
    const other = trashed.find((n) => n !== `${ID}.md`) ?? "";
    expect(readText(vault, `.trash/${other}`)).toBe(original);
  });

  it("ignore: every byte (and mtime) of the vault stays as it was", () => {
    const { vault } = interrupted();
    const before = snapshot(vault, { mtimes: true });
    const run = palee(vault, ["recover", "--draft", ID, "--action", "ignore", "--json"]);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(run.json()).toEqual({ status: "ignored", draft_id: ID });
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });
});

describe("start -i: answers on stdin", () => {
  function startInteractive(vault: string, input: string, json = true) {
    return palee(vault, ["start", "--topic", "T-b", "-i", ...(json ? ["--json"] : [])], { input });
  }

  it('"s": saves the draft as an interrupted session, then starts the new session', () => {
    const { vault, startedAt, lastCheckpointAt } = interrupted();
    const run = startInteractive(vault, "s\n");
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`Unconfirmed draft ${ID}`);
    expect(run.stderr).toContain("[R]esume [S]ave [D]iscard [I]gnore?");
    expect(run.stderr).toMatch(/Saved DRAFT-S-5a5a5a5a as S-\d{8}T\d{6}-[0-9a-f]{4}\b.*\b1 h\b.*interrupted/);
    const doc = run.json();
    expect(doc).toMatchObject({ status: "started", topic_id: "T-b" });
    const [file] = confirmedFiles(vault);
    expect(confirmedFiles(vault)).toHaveLength(1);
    expect(readRecord(vault, `palee/sessions/${file}`).fields).toMatchObject({
      started_at: startedAt,
      ended_at: lastCheckpointAt,
      duration_minutes: 60,
      outcome: "interrupted",
      absorbed_drafts: [ID],
    });
    expect(doc.last_session).toBe(file.slice(0, -3));
    expect(trashFiles(vault)).toEqual([`${ID}.md`]);
    expect(draftFiles(vault)).toEqual([`${String(doc.draft_id)}.md`]);
    expect(readRecord(vault, "palee/hot.md").fields).toMatchObject({
      active_topic: "T-b",
      open_draft: doc.draft_id,
      device: DEVICE,
    });
  });

  it('"d": moves the draft to the trash, writes no confirmed note, then starts the new session', () => {
    const { vault } = interrupted();
    const run = startInteractive(vault, "d\n");
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`Moved ${ID} to the trash.`);
    const doc = run.json();
    expect(doc).toMatchObject({ status: "started", topic_id: "T-b", last_session: null });
    expect(confirmedFiles(vault)).toEqual([]);
    expect(trashFiles(vault)).toEqual([`${ID}.md`]);
    expect(draftFiles(vault)).toEqual([`${String(doc.draft_id)}.md`]);
  });

  it('"i": leaves the draft byte-identical and starts the new session beside it', () => {
    const { vault, path } = interrupted();
    const original = readText(vault, path);
    const run = startInteractive(vault, "i\n");
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(doc).toMatchObject({ status: "started", topic_id: "T-b" });
    expect(readText(vault, path)).toBe(original);
    expect(draftFiles(vault).sort()).toEqual([`${ID}.md`, `${String(doc.draft_id)}.md`].sort());
    expect(confirmedFiles(vault)).toEqual([]);
    expect(trashFiles(vault)).toEqual([]);
    expect(readRecord(vault, "palee/hot.md").fields).toMatchObject({ active_topic: "T-b", open_draft: doc.draft_id });
  });

  it('"r": resumes the draft instead of starting a new session', () => {
    const { vault, startedAt } = interrupted();
    const run = startInteractive(vault, "r\n", false);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Resumed the session on T-a\b/);
    expect(run.stdout).toContain(startedAt);
    // The 2 h since its last checkpoint is announced as recover announces it (issue 35 §4).
    expect(run.stderr).toMatch(/Away .*, not counted \(2 h recorded as a break\)\.\n/);
    expect(run.stderr).not.toContain("new topic T-b"); // nothing was started on it
    expect(draftFiles(vault)).toEqual([`${ID}.md`]);
    expect(confirmedFiles(vault)).toEqual([]);
    expect(readRecord(vault, "palee/hot.md").fields).toMatchObject({
      active_topic: "T-a",
      started_at: startedAt,
      open_draft: ID,
      device: DEVICE,
    });
  });

  it(
    'resolves an interrupted open session too: "s" saves it (ended at its last checkpoint) and ' + "starts the new one",
    () => {
      const { vault, startedAt, lastCheckpointAt } = interrupted();
      writeHot(vault, { activeTopic: "T-a", startedAt, openDraft: ID, device: "old-laptop" });
      const run = startInteractive(vault, "s\n");
      expect(run.status).toBe(0);
      const doc = run.json();
      expect(doc).toMatchObject({ status: "started", topic_id: "T-b" });
      expect(confirmedFiles(vault)).toHaveLength(1);
      expect(readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`).fields).toMatchObject({
        started_at: startedAt,
        ended_at: lastCheckpointAt,
        duration_minutes: 60,
        outcome: "interrupted",
      });
      expect(readRecord(vault, "palee/hot.md").fields).toMatchObject({
        active_topic: "T-b",
        open_draft: doc.draft_id,
        device: DEVICE,
      });
    },
  );

  it("asks again after an unrecognized answer, then follows the good one", () => {
    const { vault } = interrupted();
    const run = startInteractive(vault, "maybe\n\ns\n");
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("Please answer r, s, d or i.");
    expect(run.stderr.split("[R]esume [S]ave [D]iscard [I]gnore?").length - 1).toBe(3);
    expect(run.json()).toMatchObject({ status: "started", topic_id: "T-b" });
    expect(confirmedFiles(vault)).toHaveLength(1);
  });

  it("asks about each pending draft in turn (oldest first)", () => {
    const { vault } = interrupted();
    const second = draftId("6b6b6b6b");
    writeDraft(vault, { id: second, topic: "T-c", startedAt: ago(60), lastCheckpointAt: ago(50), body: "c\n" });
    const run = startInteractive(vault, "d\ns\n");
    expect(run.status).toBe(0);
    expect(run.stderr.indexOf(`Unconfirmed draft ${ID}`)).toBeLessThan(
      run.stderr.indexOf(`Unconfirmed draft ${second}`),
    );
    expect(run.stderr).toContain(`Moved ${ID} to the trash.`);
    expect(run.stderr).toContain(`Saved ${second} as`);
    expect(confirmedFiles(vault)).toHaveLength(1);
    expect(readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`).fields.topic_id).toBe("T-c");
  });

  it("exits 2 and changes nothing when input ends before an answer", () => {
    const { vault } = interrupted();
    const before = snapshot(vault, { mtimes: true });
    for (const input of ["", "x\n"]) {
      const run = startInteractive(vault, input, false);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(run.stderr).toContain("palee: no answer for DRAFT-S-5a5a5a5a");
      expect(snapshot(vault, { mtimes: true })).toEqual(before);
    }
    const json = startInteractive(vault, "");
    expect(json.status).toBe(2);
    expect(json.json()).toMatchObject({ status: "error", code: "usage", exit_code: 2 });
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });

  it("prints the end-of-input error on a line of its own, not glued to the prompt", () => {
    const { vault } = interrupted();
    const run = startInteractive(vault, "", false);
    expect(run.status).toBe(2);
    const errorLines = run.stderr.split("\n").filter((l) => l.includes("no answer for"));
    expect(errorLines).toEqual([expect.stringMatching(/^palee: no answer for DRAFT-S-5a5a5a5a: /) as string]);
  });
});

describe("reconcile: a draft already named in a confirmed note's absorbed_drafts", () => {
  const SESSION = "S-20260814T100000-abcd";

  function absorbedAlready(): { vault: string; draftPath: string; confirmedPath: string } {
    const vault = makeVault();
    const draftPath = writeDraft(vault, {
      id: ID,
      topic: "T-a",
      startedAt: ago(180),
      lastCheckpointAt: ago(120),
      body: NOTES,
    });
    const confirmedPath = writeConfirmed(vault, {
      id: SESSION,
      topic: "T-a",
      // The end that saved the draft ran after it began (a note that ended before a draft began saved another
      // draft of the same ID: recovery/absorbed.ts savedIn).
      startedAt: ago(180),
      endedAt: ago(120),
      duration: 60,
      absorbed: [ID],
      summary: "Saved before the crash.",
      notes: NOTES.trim(),
    });
    return { vault, draftPath, confirmedPath };
  }

  it("recover --action save reports it as already saved and writes no second confirmed note", () => {
    const { vault, confirmedPath } = absorbedAlready();
    const confirmed = readText(vault, confirmedPath);
    const json = palee(vault, ["recover", "--draft", ID, "--action", "save", "--json"]);
    expect(json.status).toBe(0);
    expect(json.json()).toMatchObject({
      status: "saved",
      draft_id: ID,
      session: { session_id: SESSION, path: confirmedPath },
    });
    expect(confirmedFiles(vault)).toEqual([`${SESSION}.md`]);
    expect(readText(vault, confirmedPath)).toBe(confirmed);
    // Reconcile (run by recover) moved the finished draft to the trash.
    expect(draftFiles(vault)).toEqual([]);
    expect(trashFiles(vault)).toEqual([`${ID}.md`]);
  });

  it("recover --action save in text mode says it was already saved", () => {
    const { vault } = absorbedAlready();
    const run = palee(vault, ["recover", "--draft", ID, "--action", "save"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${ID} was already saved as ${SESSION}; nothing to do.\n`);
    expect(confirmedFiles(vault)).toEqual([`${SESSION}.md`]);
  });

  it("start moves it to the trash instead of offering it, and starts normally", () => {
    const { vault, confirmedPath } = absorbedAlready();
    const confirmed = readText(vault, confirmedPath);
    const run = palee(vault, ["start", "--topic", "T-b", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(doc).toMatchObject({ status: "started", topic_id: "T-b", last_session: SESSION });
    expect(run.stderr).toContain(ID);
    expect(run.stderr).toMatch(/^warning: /);
    expect(trashFiles(vault)).toEqual([`${ID}.md`]);
    expect(draftFiles(vault)).toEqual([`${String(doc.draft_id)}.md`]);
    expect(confirmedFiles(vault)).toEqual([`${SESSION}.md`]);
    expect(readText(vault, confirmedPath)).toBe(confirmed);
  });

  it("start closes a hot.md whose open_draft was absorbed, then starts normally", () => {
    const { vault } = absorbedAlready();
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(180), openDraft: ID, device: DEVICE, lastSession: SESSION });
    const run = palee(vault, ["start", "--topic", "T-b", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(doc).toMatchObject({ status: "started", topic_id: "T-b" });
    expect(trashFiles(vault)).toEqual([`${ID}.md`]);
    const hot = readRecord(vault, "palee/hot.md").fields;
    expect(hot).toMatchObject({ active_topic: "T-b", open_draft: doc.draft_id, device: DEVICE, last_session: SESSION });
    expectNearNow(hot.started_at);
    expect(confirmedFiles(vault)).toEqual([`${SESSION}.md`]);
  });

  it("start -i never asks about an absorbed draft", () => {
    const { vault } = absorbedAlready();
    const run = palee(vault, ["start", "--topic", "T-b", "-i"], { input: "" });
    expect(run.status).toBe(0);
    expect(run.stderr).not.toContain("[R]esume");
    expect(trashFiles(vault)).toEqual([`${ID}.md`]);
  });

  it("recover --action discard of it with text the note lacks moves it to the trash and says so", () => {
    const { vault, draftPath } = absorbedAlready();
    fs.appendFileSync(`${vault}/${draftPath}`, "\nTyped after the end.\n");
    const run = palee(vault, ["recover", "--draft", ID, "--action", "discard"]);
    expect(run.status).toBe(0);
    // Before: "… nothing more to do." and a warning "left it where it is", with the draft in the trash.
    expect(run.stdout).toBe(
      `Moved ${ID} to the trash: it was already saved as ${SESSION}, ` +
        "and the notes it held that the saved note lacks are in the trash with it.\n",
    );
    expect(run.stderr).toBe("");
    expect(draftFiles(vault)).toEqual([]);
    expect(trashFiles(vault)).toEqual([`${ID}.md`]);
    expect(readText(vault, `.trash/${ID}.md`)).toContain("Typed after the end.");
  });
});

describe("drafts on other devices and recover -i", () => {
  it("end leaves a draft of the same topic that is alive on another device alone, with a warning", () => {
    const vault = makeVault();
    const mine = draftId("11110000");
    const phone = draftId("22220000");
    writeDraft(vault, { id: mine, topic: "T-a", startedAt: ago(30), lastCheckpointAt: ago(1), body: "mine\n" });
    const phonePath = writeDraft(vault, {
      id: phone,
      topic: "T-a",
      startedAt: ago(60),
      lastCheckpointAt: ago(2),
      device: "phone",
      body: "phone\n",
    });
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(30), openDraft: mine, device: DEVICE });
    const phoneText = readText(vault, phonePath);
    const run = palee(vault, ["end", "--json"]);
    expect(run.status).toBe(0);
    const doc = run.json();
    expect(doc.absorbed_drafts).toEqual([mine]);
    expect((doc.session as { duration_minutes: number }).duration_minutes).toBe(30);
    expect((doc.warnings as string[]).some((w) => w.includes(phone))).toBe(true);
    expect(run.stderr).toContain(phone);
    expect(draftFiles(vault)).toEqual([`${phone}.md`]);
    expect(readText(vault, phonePath)).toBe(phoneText);
    expect(section(readRecord(vault, String((doc.session as { path: string }).path)).body, "Notes")).toBe("mine");
  });

  it("recover -i asks about every draft and applies each answer", () => {
    const { vault } = interrupted();
    const second = draftId("7c7c7c7c");
    writeDraft(vault, { id: second, topic: "T-c", startedAt: ago(60), lastCheckpointAt: ago(50) });
    const run = palee(vault, ["recover", "-i", "--json"], { input: "i\nd\n" });
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({
      status: "recovered",
      results: [
        { status: "ignored", draft_id: ID },
        { status: "discarded", draft_id: second },
      ],
    });
    expect(draftFiles(vault)).toEqual([`${ID}.md`]);
    expect(trashFiles(vault)).toEqual([`${second}.md`]);
  });
});

describe("recover --action save when what follows the save fails", () => {
  it("says first that the session is saved (saved_incomplete, exit 5), never only 'unexpected error'", () => {
    const { vault } = interrupted();
    // A folder where index.md belongs: any write of it fails, as a full disk would.
    fs.mkdirSync(`${vault}/palee/index.md`, { recursive: true });
    const run = palee(vault, ["recover", "--draft", ID, "--action", "save", "--json"]);
    expectCleanError(run, 5, { json: true, code: "saved_incomplete" });
    expect(run.stderr).toMatch(/^palee: Saved S-\d{8}T\d{6}-[0-9a-f]{4} \(T-a, 60 min\), but /);
    expect(run.stderr).not.toContain("unexpected error");
    expect(confirmedFiles(vault)).toHaveLength(1);
  });
});
