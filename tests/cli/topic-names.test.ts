/**
 * Contract §4 "finding a topic by name" through the CLI: names, aliases and paths of topic notes recorded as
 * their palee_id; ambiguous_topic / unknown_topic refusals that write nothing; the new-topic notice; bad input.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  expectCleanError,
  makeTempDir,
  makeVault,
  palee,
  readRecord,
  snapshot,
  writeFile,
} from "./support";

afterEach(cleanupVaults);

function topicVault(): string {
  const vault = makeVault();
  writeFile(vault, "Topics/Rust ownership.md", "---\npalee_id: T-rust-ownership\naliases: [Ownership]\n---\nbody\n");
  writeFile(vault, "Topics/Rust lifetimes.md", "---\naliases: Lifetimes\npalee_id: T-rust-lifetimes\n---\n");
  writeFile(vault, "Maths/Linear algebra.md", "---\npalee_id: T-linear-algebra\n---\n# Linear algebra\n");
  writeFile(vault, "Plain note.md", "# no properties\n");
  return vault;
}

function draftTopic(vault: string): unknown {
  const [draft] = draftFiles(vault);
  return readRecord(vault, `palee/sessions/${draft}`).fields.topic_id;
}

describe("a topic note's name, alias, path or unique part records its palee_id", () => {
  it.each([
    ["Rust ownership", "T-rust-ownership"],
    ["ownership", "T-rust-ownership"],
    ["LIFETIMES", "T-rust-lifetimes"],
    ["Maths/Linear algebra.md", "T-linear-algebra"],
    ["Maths/Linear algebra", "T-linear-algebra"],
    ["algeb", "T-linear-algebra"],
  ])("start --topic %j starts %s, never the words", (typed, id) => {
    const vault = topicVault();
    const run = palee(vault, ["start", "--topic", typed, "--json"]);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(run.json()).toMatchObject({ status: "started", topic_id: id });
    expect(draftTopic(vault)).toBe(id);
  });

  it("draft, pause, continue, end and log take names too", () => {
    const vault = topicVault();
    expect(palee(vault, ["start", "--topic", "Rust ownership"]).status).toBe(0);
    for (const action of ["draft", "pause", "continue"]) {
      expect({ action, status: palee(vault, [action, "--topic", "ownership"]).status }).toEqual({ action, status: 0 });
    }
    const end = palee(vault, ["end", "--topic", "rust ownership", "--summary", "done", "--json"]);
    expect(end.json()).toMatchObject({ status: "ended", session: { topic_id: "T-rust-ownership" } });
    const log = palee(vault, ["log", "--topic", "Lifetimes", "--minutes", "30", "--json"]);
    expect(log.json()).toMatchObject({ status: "logged", session: { topic_id: "T-rust-lifetimes" } });
    expect(confirmedFiles(vault)).toHaveLength(2);
  });
});

describe("the read-only actions take names too", () => {
  it("context and latest resolve a topic note's name to its palee_id", () => {
    const vault = topicVault();
    expect(palee(vault, ["log", "--topic", "T-rust-ownership", "--minutes", "30", "--summary", "moves"]).status).toBe(
      0,
    );
    expect(
      palee(vault, ["log", "--topic", "T-linear-algebra", "--minutes", "20", "--to", ago(60), "--summary", "rank"])
        .status,
    ).toBe(0);
    const context = palee(vault, ["context", "--topic", "Ownership", "--json"]);
    expect(context.status).toBe(0);
    expect(context.json()).toMatchObject({ topic_id: "T-rust-ownership" });
    expect(String(context.json().text)).not.toContain("rank");
    const latest = palee(vault, ["latest", "--topic", "rust ownership", "--json"]);
    expect(latest.json()).toMatchObject({ session: { topic_id: "T-rust-ownership", summary: "moves" } });
    expectCleanError(palee(vault, ["latest", "--topic", "Rust", "--json"]), 2, {
      json: true,
      code: "ambiguous_topic",
      extraKeys: ["matches"],
    });
  });
});

describe("refusals write nothing", () => {
  it("ambiguous_topic: exit 2, one line naming each candidate, matches in JSON", () => {
    const vault = topicVault();
    const before = snapshot(vault);
    const run = palee(vault, ["start", "--topic", "rust", "--json"]);
    expectCleanError(run, 2, { json: true, code: "ambiguous_topic", extraKeys: ["matches"] });
    expect(run.json().matches).toEqual([
      { topic_id: "T-rust-lifetimes", name: "Rust lifetimes", path: "Topics/Rust lifetimes.md" },
      { topic_id: "T-rust-ownership", name: "Rust ownership", path: "Topics/Rust ownership.md" },
    ]);
    const text = palee(vault, ["start", "--topic", "rust"]);
    expectCleanError(text, 2);
    expect(text.stderr).toContain("T-rust-ownership (Rust ownership");
    expect(text.stderr).toContain("T-rust-lifetimes (Rust lifetimes");
    expect(snapshot(vault)).toEqual(before);
  });

  it("unknown_topic: exit 2 naming the closest names, for start, draft and end", () => {
    const vault = topicVault();
    const before = snapshot(vault);
    for (const action of ["start", "draft", "end"]) {
      const run = palee(vault, [action, "--topic", "Rust ownrship", "--json"]);
      expectCleanError(run, 2, { json: true, code: "unknown_topic", extraKeys: ["closest"] });
      expect(run.stderr).toMatch(/no topic note is named "Rust ownrship" \(the closest: T-rust-ownership/);
    }
    expect(snapshot(vault)).toEqual(before);
  });

  it.each([
    ["[[Rust ownership]]", /cannot contain/],
    ["Rust | ownership", /cannot contain/],
    ["Rust\nownership", /cannot contain/],
    ["x".repeat(10_000), /at most 500 characters/],
  ])("bad input %#: one clear line, invalid_topic, nothing written", (typed, message) => {
    const vault = topicVault();
    const before = snapshot(vault);
    const run = palee(vault, ["start", "--topic", typed, "--json"]);
    expectCleanError(run, 2, { json: true, code: "invalid_topic" });
    expect(run.stderr).toMatch(message);
    expect(run.stderr.length).toBeLessThan(300);
    expect(snapshot(vault)).toEqual(before);
  });

  it("(none) and blank still mean no topic", () => {
    const vault = topicVault();
    for (const typed of ["(none)", " "]) {
      expectCleanError(palee(vault, ["start", "--topic", typed, "--json"]), 2, { json: true, code: "topic_required" });
    }
  });
});

describe("topic IDs", () => {
  it("a new ID starts, saying so on stderr with the close known ID", () => {
    const vault = topicVault();
    const run = palee(vault, ["start", "--topic", "T-rust-ownershp", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({ status: "started", topic_id: "T-rust-ownershp" });
    expect(run.stderr).toBe("new topic T-rust-ownershp; did you mean T-rust-ownership?\n");
  });

  it("an ID a session or a topic note has is not new; a refusal says nothing of it", () => {
    const vault = topicVault();
    expect(palee(vault, ["start", "--topic", "T-rust-lifetimes"]).stderr).toBe(""); // a topic note has it
    expect(palee(vault, ["end", "--summary", "s"]).status).toBe(0);
    expect(palee(vault, ["start", "--topic", "T-sql"]).stderr).toBe("new topic T-sql\n");
    expect(palee(vault, ["end", "--summary", "s"]).status).toBe(0);
    fs.rmSync(path.join(vault, "palee", "hot.md"));
    expect(palee(vault, ["start", "--topic", "T-sql"]).stderr).toBe(""); // index.md has it
    const refused = palee(vault, ["start", "--topic", "T-brand-new"]);
    expectCleanError(refused, 2); // already open: the refusal's one line only
  });

  it("an ID known only from the sessions is found when index.md is damaged", () => {
    const vault = topicVault();
    expect(palee(vault, ["start", "--topic", "T-sql"]).status).toBe(0);
    expect(palee(vault, ["end", "--summary", "s"]).status).toBe(0);
    fs.writeFileSync(path.join(vault, "palee", "index.md"), "damaged\n");
    fs.writeFileSync(path.join(vault, "palee", "hot.md"), "damaged\n");
    expect(palee(vault, ["start", "--topic", "T-sql"]).stderr).not.toContain("new topic");
  });
});

describe("which notes are topic notes", () => {
  it("skips dot-folders, the session folder and links leading out of the vault", () => {
    const vault = topicVault();
    const outside = makeTempDir();
    fs.writeFileSync(path.join(outside, "Secret.md"), "---\npalee_id: T-secret\n---\n");
    fs.symlinkSync(path.join(outside, "Secret.md"), path.join(vault, "Secret.md"));
    fs.symlinkSync(outside, path.join(vault, "Linked folder"));
    writeFile(vault, ".trash/Trashed.md", "---\npalee_id: T-trashed\n---\n");
    writeFile(vault, ".obsidian/Config.md", "---\npalee_id: T-config\n---\n");
    writeFile(vault, "palee/Inside.md", "---\npalee_id: T-inside\n---\n");
    for (const name of ["Secret", "Trashed", "Config", "Inside"]) {
      const run = palee(vault, ["start", "--topic", name, "--json"]);
      expectCleanError(run, 2, { json: true, code: "unknown_topic", extraKeys: ["closest"] });
    }
    expect(draftFiles(vault)).toEqual([]);
  });

  it("never hangs on a named pipe, nor on a link to one, among the notes", () => {
    const vault = topicVault();
    const fifo = path.join(vault, "Pipe.md");
    if (spawnSync("mkfifo", [fifo]).status !== 0) throw new Error("mkfifo is not available");
    fs.symlinkSync(fifo, path.join(vault, "Link to pipe.md"));
    const run = palee(vault, ["start", "--topic", "Rust ownership", "--json"]); // hanging: killed after 20 s
    expect({ status: run.status, topic: run.json().topic_id }).toEqual({ status: 0, topic: "T-rust-ownership" });
  });

  it("follows a link that stays inside the vault, and reads a note whose frontmatter is long", () => {
    const vault = topicVault();
    fs.symlinkSync(path.join(vault, "Topics", "Rust lifetimes.md"), path.join(vault, "Alias of lifetimes.md"));
    const long = `---\ndescription: "${"word ".repeat(3000)}"\npalee_id: T-long\n---\nbody\n`;
    writeFile(vault, "Long.md", long);
    expect(palee(vault, ["start", "--topic", "Alias of lifetimes", "--json"]).json().topic_id).toBe("T-rust-lifetimes");
    expect(palee(vault, ["end", "--summary", "s"]).status).toBe(0);
    expect(palee(vault, ["start", "--topic", "Long", "--json"]).json().topic_id).toBe("T-long");
  });
});
