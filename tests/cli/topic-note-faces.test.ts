/**
 * Topics by name (contract §5 version 4; issue 35 §3): a session started from the CLI, MCP or a hook records
 * `topic_note` as the plugin does when a topic note has the topic's palee_id, so hot.md and the brief link it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { call, connectStdio } from "./mcp-support";
import { cleanupVaults, confirmedFiles, draftFiles, makeVault, palee, readRecord, writeFile } from "./support";

afterEach(cleanupVaults);
jest.setTimeout(30_000);

const LINK = "[[Topics/Rust ownership]]";

function topicVault(): string {
  const vault = makeVault();
  writeFile(vault, "Topics/Rust ownership.md", "---\npalee_id: T-rust-ownership\n---\nbody\n");
  return vault;
}

const draftFields = (vault: string) => readRecord(vault, `palee/sessions/${draftFiles(vault)[0]}`).fields;
const noteFields = (vault: string) => readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`).fields;

describe("topic_note on every face", () => {
  it.each([["Rust ownership"], ["T-rust-ownership"]])("start --topic %j, then end: both record the link", (typed) => {
    const vault = topicVault();
    expect(palee(vault, ["start", "--topic", typed]).status).toBe(0);
    expect(draftFields(vault).topic_note).toBe(LINK);
    expect(palee(vault, ["end", "--summary", "- moves"]).status).toBe(0);
    expect(noteFields(vault).topic_note).toBe(LINK);
    expect(fs.readFileSync(path.join(vault, "palee", "hot.md"), "utf8")).toContain(LINK);
  });

  it("start with the active topic (no --topic) records it too", () => {
    const vault = topicVault();
    expect(palee(vault, ["log", "--topic", "T-rust-ownership", "--minutes", "20"]).status).toBe(0);
    expect(noteFields(vault).topic_note).toBe(LINK);
    expect(palee(vault, ["start"]).status).toBe(0);
    expect(draftFields(vault).topic_note).toBe(LINK);
  });

  it("draft opening a session records it; a topic with no note records none", () => {
    const vault = topicVault();
    expect(palee(vault, ["draft", "--topic", "Rust ownership", "--note", "n"]).status).toBe(0);
    expect(draftFields(vault).topic_note).toBe(LINK);
    const other = makeVault();
    expect(palee(other, ["start", "--topic", "T-go"]).status).toBe(0);
    expect(draftFields(other)).not.toHaveProperty("topic_note");
  });

  it("the hook's SessionStart records it", () => {
    const vault = topicVault();
    const input = JSON.stringify({ hook_event_name: "SessionStart", session_id: "c-1", source: "startup" });
    expect(palee(vault, ["hook", "--topic", "Rust ownership"], { input }).status).toBe(0);
    expect(draftFields(vault).topic_note).toBe(LINK);
  });

  it("MCP start_session records it", async () => {
    const vault = topicVault();
    const connected = await connectStdio(vault);
    try {
      expect((await call(connected.client, "start_session", { topic: "Rust ownership" })).isError).toBe(false);
    } finally {
      await connected.close();
    }
    expect(draftFields(vault).topic_note).toBe(LINK);
  });
});

describe("reading a topic by a mistyped ID or by name", () => {
  it("context and latest of a mistyped ID say did you mean, exit 0", () => {
    const vault = topicVault();
    expect(palee(vault, ["log", "--topic", "T-rust-ownership", "--minutes", "20"]).status).toBe(0);
    for (const action of ["context", "latest"]) {
      const run = palee(vault, [action, "--topic", "T-rust-ownershp"]);
      expect(run.status).toBe(0);
      expect(run.stderr).toBe("no session or topic note has T-rust-ownershp; did you mean T-rust-ownership?\n");
    }
    expect(palee(vault, ["context", "--topic", "T-rust-ownership"]).stderr).toBe("");
  });

  it("list --topic lists only that topic, by ID or name, with its totals", () => {
    const vault = topicVault();
    expect(palee(vault, ["log", "--topic", "T-rust-ownership", "--minutes", "20", "--to", "10:00"]).status).toBe(0);
    expect(palee(vault, ["log", "--topic", "T-go", "--minutes", "20", "--to", "11:00"]).status).toBe(0);
    for (const typed of ["T-rust-ownership", "Rust ownership"]) {
      const run = palee(vault, ["list", "--topic", typed, "--json"]);
      expect(run.status).toBe(0);
      const doc = run.json() as { confirmed: Array<{ topic_id: string }>; total_confirmed: number };
      expect(doc.confirmed.map((s) => s.topic_id)).toEqual(["T-rust-ownership"]);
      expect(doc.total_confirmed).toBe(1);
    }
  });
});

describe("a note whose palee_id is not a topic ID", () => {
  it("is named as such when its name is given, not as no note named so", () => {
    const vault = topicVault();
    writeFile(vault, "Topics/Go basics.md", '---\npalee_id: "go basics"\n---\n');
    writeFile(vault, "Topics/Numbers.md", "---\npalee_id: 42\n---\n");
    const run = palee(vault, ["start", "--topic", "Go basics", "--json"]);
    expect(run.status).toBe(2);
    expect(run.json()).toMatchObject({ code: "invalid_topic" });
    expect(run.stderr).toMatch(/the note Topics\/Go basics\.md has palee_id "go basics", which is not a topic ID/);
    expect(palee(vault, ["context", "--topic", "numbers"]).stderr).toMatch(/Topics\/Numbers\.md has palee_id "42"/);
    expect(draftFiles(vault)).toEqual([]);
    expect(palee(vault, ["start", "--topic", "nothing like it"]).stderr).toMatch(/no topic note is named/);
  });
});

describe("list text", () => {
  it("aligns its columns", () => {
    const vault = topicVault();
    expect(palee(vault, ["log", "--topic", "T-a", "--minutes", "5", "--to", "09:00"]).status).toBe(0);
    expect(palee(vault, ["log", "--topic", "T-rust-ownership", "--minutes", "125", "--to", "12:00"]).status).toBe(0);
    const rows = palee(vault, ["list"])
      .stdout.split("\n")
      .filter((l) => /^ {2}S-/.test(l));
    expect(rows).toHaveLength(2);
    const starts = rows.map((l) => [l.indexOf("T-"), l.search(/\d{4}-\d\d-\d\dT/), l.indexOf("logged")]);
    expect(starts[0]).toEqual(starts[1]);
  });
});
