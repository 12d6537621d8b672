/**
 * `palee mcp` (contract §5, version 3) through the SDK's own client over stdio, against the built CLI in temp
 * vaults: the tools and resources it offers, each tool's document, refusals as tool errors with the stable
 * code, bad arguments, the vault lock, and a CLI `end` racing the server.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { lockVault } from "../../src/cli/lock";
import { call, servedPerTest } from "./mcp-support";
import {
  CLI,
  confirmedFiles,
  draftFiles,
  makeTempDir,
  makeVault,
  palee,
  paleeAsync,
  readText,
  runRaw,
  snapshot,
  testCacheDir,
} from "./support";

jest.setTimeout(30_000);

const serve = servedPerTest();

const TOOLS = [
  "status",
  "context",
  "list_sessions",
  "show_session",
  "stats",
  "start_session",
  "checkpoint",
  "pause",
  "continue_session",
  "end_session",
  "log_session",
  "goals",
  "set_goal",
  "year",
  "study_next",
];

describe("palee mcp: what it offers", () => {
  it("lists its tools with strict input schemas, and the two resources", async () => {
    const { client } = await serve(makeVault());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    const end = tools.find((t) => t.name === "end_session");
    expect(Object.keys(end?.inputSchema.properties ?? {}).sort()).toEqual(
      [
        "agent",
        "at",
        "count_away",
        "next_action",
        "note",
        "outcome",
        "summary",
        "topic",
        "recall",
        "rating",
        "done",
      ].sort(),
    );
    expect(end?.inputSchema).toMatchObject({ additionalProperties: false });
    expect(tools.find((t) => t.name === "status")?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === "start_session")?.annotations).toMatchObject({ readOnlyHint: false });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["palee://working-memory"]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(["palee://session/{id}"]);
  });

  it("writes nothing and takes no lock for the reading tools and resources", async () => {
    const vault = makeVault();
    const cache = makeTempDir("palee-mcp-cache-");
    const { client } = await serve(vault, { PALEE_CACHE_DIR: cache });
    for (const name of ["status", "list_sessions", "stats"]) expect((await call(client, name)).isError).toBe(false);
    expect((await call(client, "context", { topic: "T-rust" })).isError).toBe(false);
    await client.readResource({ uri: "palee://working-memory" });
    await client.listResources();
    expect(snapshot(vault)).toEqual({});
    expect(fs.readdirSync(cache)).toEqual([]);
  });

  it("refuses a vault that does not exist before serving, in one line, exit 2", () => {
    const missing = path.join(makeTempDir(), "nowhere");
    const r = spawnSync(process.execPath, [CLI, "mcp", "--vault", missing], { input: "", encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toEqual([`palee: vault folder does not exist: ${missing}`]);
  });

  it("says how to run it in the general help and in its own", () => {
    expect(runRaw(["--help"]).stdout.split("\n")[1]).toMatch(/^ +palee mcp \[--vault <dir>\] \[--folder <path>\]/);
    const own = runRaw(["mcp", "--help"]);
    expect(own.status).toBe(0);
    expect(own.stdout).toMatch(/^Usage: palee mcp \[--vault <dir>\] \[--folder <path>\]\n/);
    const wrong = runRaw(["mcp", "--topic", "T-a"]);
    expect([wrong.status, wrong.stdout, wrong.stderr.trim()]).toEqual([
      2,
      "",
      expect.stringMatching(/^palee: .*--topic/),
    ]);
  });

  it("puts only protocol messages on stdout", () => {
    const vault = makeVault();
    const messages = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "start_session", arguments: { topic: "T-a" } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "status", arguments: {} } },
    ];
    const r = spawnSync(process.execPath, [CLI, "mcp", "--vault", vault], {
      input: messages.map((m) => JSON.stringify(m)).join("\n") + "\n",
      encoding: "utf8",
      env: { ...process.env, PALEE_CACHE_DIR: testCacheDir(), TZ: "UTC" },
    });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n");
    const parsed = lines.map((l) => JSON.parse(l) as { jsonrpc: string; id: number });
    expect(parsed.map((m) => [m.jsonrpc, m.id]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ["2.0", 1],
      ["2.0", 2],
      ["2.0", 3],
    ]);
    expect(r.stderr).toMatch(/^palee mcp: serving /);
    expect(draftFiles(vault)).toHaveLength(1);
  });
});

describe("palee mcp: each tool is the CLI action of that name", () => {
  it("starts, checkpoints, pauses, continues and ends a session, with the CLI's documents", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    const started = await call(client, "start_session", { topic: "T-rust" });
    expect(started).toMatchObject({ isError: false, doc: { status: "started", topic_id: "T-rust" } });
    const draftId = started.doc.draft_id as string;
    const checkpoint = await call(client, "checkpoint", { note: "- lifetimes: elision rules" });
    expect(checkpoint.doc).toMatchObject({ status: "checkpointed", created: false, draft: { draft_id: draftId } });
    expect(readText(vault, `palee/sessions/${draftId}.md`)).toContain("- lifetimes: elision rules");
    expect((await call(client, "pause")).doc).toMatchObject({ status: "paused", draft_id: draftId });
    expect((await call(client, "continue_session")).doc).toMatchObject({ status: "continued", draft_id: draftId });
    const status = await call(client, "status");
    expect(status.doc).toMatchObject({ open: { topic_id: "T-rust", draft_id: draftId } });
    // Seconds pass between the two reads: the clock-dependent fields are compared apart.
    const timeless = (doc: Record<string, unknown>) => {
      const { elapsed_seconds, silence_seconds, ...rest } = doc.open as Record<string, unknown>;
      expect([typeof elapsed_seconds, typeof silence_seconds]).toEqual(["number", "number"]);
      return rest;
    };
    expect(timeless(status.doc)).toEqual(timeless(palee(vault, ["status", "--json"]).json()));
    const ended = await call(client, "end_session", { summary: "- borrowing rules", next_action: "exercises 4.1" });
    expect(ended.doc).toMatchObject({ status: "ended", absorbed_drafts: [draftId], session: { topic_id: "T-rust" } });
    const sessionId = (ended.doc.session as { session_id: string }).session_id;
    expect(confirmedFiles(vault)).toEqual([`${sessionId}.md`]);
    expect(draftFiles(vault)).toEqual([]);
  });

  it("answers the reading tools as the CLI does, and reads the resources", async () => {
    const vault = makeVault();
    palee(vault, ["start", "--topic", "T-rust"]);
    palee(vault, ["end", "--summary", "ownership moves", "--next", "chapter 5"]);
    const { client } = await serve(vault);
    const listed = await call(client, "list_sessions");
    expect(listed.doc).toEqual(palee(vault, ["list", "--json"]).json());
    const id = (listed.doc.confirmed as Array<{ session_id: string }>)[0].session_id;
    const shown = await call(client, "show_session", { id });
    expect(shown.doc).toEqual(palee(vault, ["show", "--id", id, "--json"]).json());
    expect(shown.doc).toMatchObject({ session: { summary: "ownership moves", next_action: "chapter 5" } });
    const context = await call(client, "context", { topic: "T-rust", words: 100 });
    const cliContext = palee(vault, ["context", "--topic", "T-rust", "--words", "100", "--json"]).json();
    expect(context.doc).toEqual(cliContext);
    const stats = await call(client, "stats");
    expect(stats.doc).toMatchObject({ total_sessions: 1 });
    const memory = await client.readResource({ uri: "palee://working-memory" });
    expect(memory.contents[0]).toMatchObject({ mimeType: "text/markdown", text: readText(vault, "palee/hot.md") });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`palee://session/${id}`);
    const note = await client.readResource({ uri: `palee://session/${id}` });
    expect(note.contents[0]).toMatchObject({ text: readText(vault, `palee/sessions/${id}.md`) });
  });

  it("logs a past session and limits the list to the newest", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    const first = await call(client, "log_session", { topic: "T-go", minutes: 30, summary: "channels" });
    expect(first.doc).toMatchObject({ status: "logged", session: { topic_id: "T-go", duration_minutes: 30 } });
    await call(client, "log_session", { topic: "T-go", minutes: 20, to: "2026-01-02T10:00:00Z" });
    const listed = await call(client, "list_sessions", { limit: 1 });
    expect(listed.doc).toMatchObject({ total_confirmed: 2 });
    expect(listed.doc.confirmed).toEqual([expect.objectContaining(first.doc.session as object)]);
  });
});

describe("palee mcp: refusals and bad input", () => {
  it("refuses a second start as a tool error carrying already_open, writing nothing", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    await call(client, "start_session", { topic: "T-rust" });
    const before = snapshot(vault);
    const again = await call(client, "start_session", { topic: "T-go" });
    expect(again.isError).toBe(true);
    expect(again.doc).toMatchObject({ status: "already_open", code: "already_open", open: { topic_id: "T-rust" } });
    expect(again.text).toMatch(/a session is already open: T-rust/);
    expect(snapshot(vault)).toEqual(before);
  });

  it("refuses with the stable code of the core's errors", async () => {
    const { client } = await serve(makeVault());
    const missing = await call(client, "show_session", { id: "S-20260101T000000-abcd" });
    expect(missing).toMatchObject({ isError: true, doc: { status: "error", code: "no_such_session", exit_code: 2 } });
    const badTopic = await call(client, "start_session", { topic: "T-" });
    expect(badTopic).toMatchObject({ isError: true, doc: { code: "invalid_topic" } });
    const badAt = await call(client, "log_session", { topic: "T-a", from: "25:99" });
    expect(badAt).toMatchObject({ isError: true, doc: { code: "invalid_time" } });
    await expect(client.readResource({ uri: "palee://session/S-nope" })).rejects.toThrow(/no_such_session/);
    await expect(client.readResource({ uri: "palee://session/..%2F..%2Fhot" })).rejects.toThrow(/no_such_session/);
  });

  it("offers confirmed sessions as resources, never a draft", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    const started = await call(client, "start_session", { topic: "T-rust" });
    const draftId = started.doc.draft_id as string;
    expect((await call(client, "show_session", { id: draftId })).doc).toMatchObject({ draft: { draft_id: draftId } });
    await expect(client.readResource({ uri: `palee://session/${draftId}` })).rejects.toThrow(
      /no_such_session: .* is a draft, not a confirmed session/,
    );
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["palee://working-memory"]);
  });

  it("refuses arguments of the wrong type, unknown, missing or huge, writes nothing, and keeps serving", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    const refusals = [
      await call(client, "context", { words: "many" }),
      await call(client, "start_session", { topic: 42 }),
      await call(client, "start_session", { topic: "T-a", colour: "red" }),
      await call(client, "show_session", {}),
      await call(client, "checkpoint", { topic: "T-a", note: "x".repeat(200 * 1024) }),
      await call(client, "start_session", { topic: "T-" + "a".repeat(5000) }),
      await call(client, "end_session", { summary: "-" }),
    ];
    for (const r of refusals) expect(r.isError).toBe(true);
    expect(refusals.slice(0, 6).map((r) => /Input validation error/.test(r.text))).toEqual(Array(6).fill(true));
    expect(refusals[6].doc).toMatchObject({ code: "usage" });
    expect(snapshot(vault)).toEqual({});
    expect((await call(client, "status")).doc).toEqual({ open: null });
  });
});

describe("palee mcp: one vault, several writers", () => {
  it("sees a CLI end of the session it started, then refuses to end it again", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    await call(client, "start_session", { topic: "T-rust" });
    const cli = palee(vault, ["end", "--summary", "ended in the terminal", "--json"]);
    expect(cli.status).toBe(0);
    expect((await call(client, "status")).doc).toEqual({ open: null });
    const again = await call(client, "end_session", { summary: "late" });
    expect(again).toMatchObject({ isError: true, doc: { code: "nothing_open" } });
    expect(confirmedFiles(vault)).toHaveLength(1);
  });

  it("runs calls sent without waiting one after another, in the order sent", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    const notes = ["first-note", "second-note", "third-note", "fourth-note"];
    const answers = await Promise.all([
      call(client, "start_session", { topic: "T-rust" }),
      ...notes.map((note) => call(client, "checkpoint", { note })),
      call(client, "end_session", { summary: "in order" }),
    ]);
    expect(answers.map((a) => a.doc.status)).toEqual(["started", ...notes.map(() => "checkpointed"), "ended"]);
    const [file] = confirmedFiles(vault);
    const text = readText(vault, `palee/sessions/${file}`);
    const positions = notes.map((n) => text.indexOf(n));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("records one session when a CLI end and the tool's end race", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    await call(client, "start_session", { topic: "T-rust" });
    const cli = paleeAsync(vault, ["end", "--json"]);
    const tool = await call(client, "end_session", {});
    const terminal = await cli.done;
    const saved = [
      ...(tool.isError ? [] : [(tool.doc.session as { session_id: string }).session_id]),
      ...(terminal.status === 0 ? [(terminal.json().session as { session_id: string }).session_id] : []),
    ];
    expect(saved.length).toBeGreaterThan(0);
    expect(new Set(saved).size).toBe(1);
    expect(confirmedFiles(vault)).toEqual([`${saved[0]}.md`]);
    expect(draftFiles(vault)).toEqual([]);
  });

  it("waits for the vault lock like the CLI and refuses busy when it is held, writing nothing", async () => {
    const vault = makeVault();
    const env = { PALEE_CACHE_DIR: testCacheDir(), PALEE_LOCK_WAIT_MS: "300" };
    const held = await lockVault(vault, { ...process.env, ...env });
    try {
      const { client } = await serve(vault, env);
      const busy = await call(client, "start_session", { topic: "T-rust" });
      expect(busy).toMatchObject({ isError: true, doc: { code: "busy", exit_code: 4 } });
      expect(snapshot(vault)).toEqual({});
      expect((await call(client, "status")).isError).toBe(false);
    } finally {
      await held.release();
    }
  });
});
