/**
 * The running app as a door (contract §5, version 3): `obsidian://palee-sessions?action=…` links for phone
 * shortcuts, and the app's own command line (`palee-sessions:start topic=…` and the others) on Obsidian 1.12.2
 * and later. Each runs the commands' flows: the status bar follows, refusals are notices or text answers.
 */
import { confirmedText, draftText } from "../support/builders";
import { cliCommands, followLink, protocolActions, runCli } from "./support/doors";
import type { LoadedPlugin } from "./support/plugin-harness";
import {
  MINUTE,
  harness,
  installPluginTestEnvironment,
  lastNotice,
  loadPlugin,
  noticeLog,
  submitEnd,
  suggestions,
  tickFor,
} from "./support/plugin-harness";
import {
  HOT,
  S,
  bodyAt,
  draftPaths,
  fieldsAt,
  onlyConfirmed,
  onlyDraft,
  openModals,
  statusText,
} from "./support/session-files";

/** Whether the app says it is 1.12.2 or later (the mock always says yes); a test sets it to model an older app. */
let mockCliApi = true;
jest.mock("obsidian", () => {
  const actual = jest.requireActual<Record<string, unknown>>("obsidian");
  return { ...actual, requireApiVersion: (version: string) => version !== "1.12.2" || mockCliApi };
});

installPluginTestEnvironment();

afterEach(() => {
  mockCliApi = true;
});

const RUST_NOTE = "notes/Rust ownership.md";
const RUST = "---\npalee_id: T-rust-ownership\naliases: [ownership]\n---\nMoves and borrows.\n";
const PAST = "S-20260813T100000-abcd";

async function vault(files: Record<string, string> = {}): Promise<LoadedPlugin> {
  const h = harness({ files: { [RUST_NOTE]: RUST, ...files } });
  return loadPlugin(h, { device: "laptop" });
}

const link = (query: string) => `obsidian://palee-sessions?${query}`;

describe("obsidian://palee-sessions links", () => {
  it("starts a session on a topic named by its note, as the picker would", async () => {
    const p = await vault();
    await followLink(p, link("action=start&topic=Rust%20ownership"));
    expect(fieldsAt(p.h, HOT)).toMatchObject({ active_topic: "T-rust-ownership" });
    expect(draftPaths(p.h)).toHaveLength(1);
    expect(lastNotice()).toBe("Session on Rust ownership started.");
    expect(statusText(p)).toContain("Rust ownership"); // the topic note's name (version 4, topics by name)
  });

  it("starts on a topic ID of a past session, and opens the picker without a topic", async () => {
    const p = await vault({ [S(PAST)]: confirmedText({ session_id: PAST, topic_id: "T-graphs" }) });
    await followLink(p, link("action=start"));
    expect(openModals()).toEqual(["TopicPickerModal"]);
    expect(suggestions("").map((c) => ("topicId" in c ? c.topicId : c.kind))).toContain("T-graphs");
  });

  it("refuses a topic nobody knows with a notice, writing nothing", async () => {
    const p = await vault();
    const before = p.h.files();
    await followLink(p, link("action=start&topic=T-nobody"));
    await followLink(p, link("action=start&topic=Linear%20algebra"));
    // The core's refusals (src/core/topics/resolve.ts), as the CLI words them, with where a new topic begins.
    const begin = "add palee_id: T-… to a note's properties, or start a new topic once from the topic picker";
    expect(noticeLog().slice(-2)).toEqual([
      `No session or topic note has T-nobody; ${begin}`,
      `No topic note is named "Linear algebra" (the closest: T-rust-ownership (Rust ownership, ` +
        `notes/Rust ownership.md)); ${begin}`,
    ]);
    expect(p.h.files()).toEqual(before);
    expect(openModals()).toEqual([]);
  });

  it("names a note whose palee_id is not a topic ID, writing nothing", async () => {
    const p = await vault({ "notes/Go basics.md": '---\npalee_id: "go basics"\n---\n' });
    const before = p.h.files();
    await followLink(p, link("action=start&topic=Go%20basics"));
    expect(lastNotice()).toBe(
      'The note notes/Go basics.md has palee_id "go basics", which is not a topic ID: correct its palee_id ' +
        '(use T- followed by letters, digits, ".", "_" or "-"); nothing was written',
    );
    expect(p.h.files()).toEqual(before);
  });

  it("treats a script in a parameter as text: looked up, shown as text, nothing run or written", async () => {
    const p = await vault();
    const before = p.h.files();
    const script = "<img src=x onerror=alert(1)><script>window.hacked=1</script>";
    await followLink(p, link(`action=start&topic=${encodeURIComponent(script)}`));
    expect(lastNotice()).toContain(`No topic note is named "${script}" (the closest: `);
    expect(document.querySelector("script, img")).toBeNull();
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
    expect(p.h.files()).toEqual(before);
  });

  it("answers an unknown or missing action with a notice", async () => {
    const p = await vault();
    const before = p.h.files();
    await followLink(p, link("action=delete-everything"));
    await followLink(p, "obsidian://palee-sessions");
    const expected = "A PALEE link takes action=start, end, pause, continue, history, next.";
    expect(noticeLog().slice(-2)).toEqual([expected, expected]);
    expect(p.h.files()).toEqual(before);
  });

  it("pauses, continues and ends through the end dialog", async () => {
    const p = await vault();
    await followLink(p, link("action=start&topic=T-rust-ownership"));
    await tickFor(10 * MINUTE);
    await followLink(p, link("action=pause"));
    expect(fieldsAt(p.h, onlyDraft(p.h)).paused_at).not.toBeNull();
    await followLink(p, link("action=pause"));
    expect(lastNotice()).toBe("The session is already paused.");
    await followLink(p, link("action=continue"));
    expect(fieldsAt(p.h, onlyDraft(p.h)).paused_at ?? null).toBeNull();
    await followLink(p, link("action=end"));
    expect(openModals()).toEqual(["EndSessionModal"]);
    await submitEnd("borrowing rules", "exercises 4.1");
    expect(bodyAt(p.h, onlyConfirmed(p.h))).toContain("borrowing rules");
    expect(draftPaths(p.h)).toEqual([]);
  });

  it("says when there is nothing to pause, continue or end", async () => {
    const p = await vault();
    await followLink(p, link("action=pause"));
    await followLink(p, link("action=continue"));
    await followLink(p, link("action=end"));
    expect(noticeLog().slice(-3)).toEqual([
      "No session of this device is running.",
      "No session of this device is running.",
      "No session is open.",
    ]);
  });

  it("takes the verb as do= too, for an app that keeps action for the link's own name", async () => {
    const p = await vault();
    await followLink(p, link("do=history"));
    expect(p.h.app.workspace.getLeavesOfType("palee-history")).toHaveLength(1);
  });

  it("opens the study history", async () => {
    const p = await vault();
    await followLink(p, link("action=history"));
    expect(p.h.app.workspace.getLeavesOfType("palee-history")).toHaveLength(1);
  });

  it("does nothing once the plugin is unloaded", async () => {
    const p = await vault();
    const before = p.h.files();
    const count = noticeLog().length;
    p.unload();
    await followLink(p, link("action=start&topic=T-rust-ownership"));
    expect(noticeLog()).toHaveLength(count);
    expect(p.h.files()).toEqual(before);
  });
});

describe("the app's command line (Obsidian 1.12.2 and later)", () => {
  const COMMANDS = ["checkpoint", "context", "continue", "end", "next", "pause", "start", "status"];

  it("registers its handlers on 1.12.2, and none on an older app, where links still work", async () => {
    const p = await vault();
    expect(cliCommands(p)).toEqual(COMMANDS.map((c) => `palee-sessions:${c}`));
    mockCliApi = false;
    const old = await vault();
    expect(cliCommands(old)).toEqual([]);
    expect(protocolActions(old)).toEqual(["palee-sessions"]);
  });

  it("runs a whole session through the app, answering in text", async () => {
    const p = await vault();
    expect(await runCli(p, "palee-sessions:status")).toBe("No session is open.");
    expect(await runCli(p, "palee-sessions:start", { topic: "ownership" })).toBe("Session on Rust ownership started.");
    expect(statusText(p)).toContain("Rust ownership"); // the topic note's name (version 4, topics by name)
    await tickFor(5 * MINUTE);
    expect(await runCli(p, "palee-sessions:checkpoint", { note: "- moves: elision" })).toMatch(
      /^Checkpoint saved \(Rust ownership/,
    );
    expect(bodyAt(p.h, onlyDraft(p.h))).toContain("- moves: elision");
    expect(await runCli(p, "palee-sessions:status")).toMatch(/^Rust ownership: .* so far\n/);
    expect(await runCli(p, "palee-sessions:pause")).toMatch(/^Session on Rust ownership paused at /);
    expect(await runCli(p, "palee-sessions:continue")).toBe("Session on Rust ownership continues.");
    const ended = await runCli(p, "palee-sessions:end", { summary: "borrowing", next: "exercise 4" });
    expect(ended).toMatch(/^Session on Rust ownership saved \(/);
    expect(bodyAt(p.h, onlyConfirmed(p.h))).toContain("borrowing");
    expect(statusText(p)).not.toContain("T-rust-ownership");
    expect(await runCli(p, "palee-sessions:context", { topic: "T-rust-ownership" })).toContain("borrowing");
    // A mistyped ID is refused as the CLI words it, naming the close one (issue 35 §3 "did you mean").
    expect(await runCli(p, "palee-sessions:context", { topic: "T-rust-ownershp" })).toBe(
      "No session or topic note has T-rust-ownershp (did you mean T-rust-ownership?); add palee_id: T-… to a " +
        "note's properties, or start a new topic once from the topic picker",
    );
  });

  it("refuses in text, writing nothing: no topic, an unknown one, a bad end time, nothing open", async () => {
    const p = await vault();
    const before = p.h.files();
    expect(await runCli(p, "palee-sessions:start", {})).toBe("Give the topic: topic=<topic ID or note name>.");
    expect(await runCli(p, "palee-sessions:start", { topic: "true" })).toBe(
      "Give the topic: topic=<topic ID or note name>.",
    );
    expect(await runCli(p, "palee-sessions:start", { topic: "Graphs" })).toMatch(/^No topic note is named "Graphs" \(/);
    expect(await runCli(p, "palee-sessions:end", { summary: "x" })).toBe("No session of this device is running.");
    expect(p.h.files()).toEqual(before);
    await runCli(p, "palee-sessions:start", { topic: "T-rust-ownership" });
    const started = p.h.files();
    expect(await runCli(p, "palee-sessions:end", { at: "25:99" })).toMatch(/^Could not end the session: /);
    expect(p.h.files()).toEqual(started);
  });

  it("answers a second start with the command's refusal", async () => {
    const p = await vault();
    await runCli(p, "palee-sessions:start", { topic: "T-rust-ownership" });
    expect(await runCli(p, "palee-sessions:start", { topic: "T-rust-ownership" })).toMatch(
      /^A session on Rust ownership is already open/,
    );
    expect(draftPaths(p.h)).toHaveLength(1);
  });

  it("says a dialog is waiting when the start must first recover an interrupted session", async () => {
    // T0 is 12:00; this draft's last checkpoint is 11:30, past the grace period: interrupted, offered first.
    const p = await vault({ [S("DRAFT-S-0a0b0c0d")]: draftText({ session_id: "DRAFT-S-0a0b0c0d" }) });
    const before = p.h.files();
    const answer = await runCli(p, "palee-sessions:start", { topic: "T-rust-ownership" });
    expect(answer).toBe("A dialog is open in Obsidian: answer it there.");
    expect(openModals()).toContain("RecoveryModal");
    expect(p.h.files()).toEqual(before);
  });

  it("answers a call made while the plugin is unloading, doing nothing", async () => {
    const p = await vault();
    const before = p.h.files();
    p.unload();
    expect(await runCli(p, "palee-sessions:start", { topic: "T-rust-ownership" })).toBe(
      "PALEE Sessions is being unloaded: nothing was done.",
    );
    expect(p.h.files()).toEqual(before);
  });
});
