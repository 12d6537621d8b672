/**
 * `palee mcp` keeps serving (issue 35 §2): a request over 10 MB is refused with a JSON-RPC error and the next
 * one is answered; a reading tool does not wait behind a writing one that waits for the vault lock.
 */
import { spawn } from "node:child_process";
import { lockVault } from "../../src/cli/lock";
import type { Connected } from "./mcp-support";
import { call, connectStdio } from "./mcp-support";
import { CLI, DEVICE, cleanupVaults, makeVault, testCacheDir } from "./support";

jest.setTimeout(30_000);

let open: Connected[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  cleanupVaults();
});

/** The server over raw stdio: what it answers to each id, as lines arrive. */
function rawServer(vault: string) {
  const env = { PATH: process.env.PATH ?? "", PALEE_DEVICE: DEVICE, TZ: "UTC", PALEE_CACHE_DIR: testCacheDir() };
  const child = spawn(process.execPath, [CLI, "mcp", "--vault", vault], { env });
  const answers = new Map<unknown, Record<string, unknown>>();
  const waiting: Array<() => void> = [];
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let i = buffer.indexOf("\n"); i !== -1; i = buffer.indexOf("\n")) {
      const doc = JSON.parse(buffer.slice(0, i)) as Record<string, unknown>;
      buffer = buffer.slice(i + 1);
      answers.set(doc.id, doc);
      for (const w of waiting.splice(0)) w();
    }
  });
  const send = (message: object | string) =>
    child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  const answer = async (id: unknown): Promise<Record<string, unknown>> => {
    while (!answers.has(id)) await new Promise<void>((resolve) => waiting.push(resolve));
    return answers.get(id) as Record<string, unknown>;
  };
  const stop = () => new Promise<void>((resolve) => (child.stdin.end(), child.once("exit", () => resolve())));
  return { send, answer, stop };
}

describe("palee mcp: a request over 10 MB", () => {
  it("is refused with an error naming its id, and the server answers the next request", async () => {
    const server = rawServer(makeVault());
    const clientInfo = { name: "t", version: "1" };
    server.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo },
    });
    await server.answer(1);
    server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const huge = "x".repeat(10 * 1024 * 1024 + 10);
    server.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "checkpoint", arguments: { note: huge } },
    });
    server.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "status", arguments: {} } });
    expect(await server.answer(2)).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(await server.answer(3)).toMatchObject({ id: 3, result: { structuredContent: { open: null } } });
    await server.stop();
  });
});

describe("palee mcp: reading tools and the lock", () => {
  it("status answers while end_session waits for the vault lock", async () => {
    const vault = makeVault();
    const env = { PALEE_CACHE_DIR: testCacheDir(), PALEE_LOCK_WAIT_MS: "8000" };
    const connected = await connectStdio(vault, env);
    open.push(connected);
    const { client } = connected;
    expect((await call(client, "start_session", { topic: "T-rust", agent: "a:1" })).isError).toBe(false);
    const held = await lockVault(vault, { ...process.env, ...env });
    let released = false;
    let ending: Promise<unknown> = Promise.resolve();
    try {
      ending = call(client, "end_session", { summary: "- x" });
      const status = await call(client, "status");
      expect(released).toBe(false);
      expect(status.doc).toMatchObject({ open: { topic_id: "T-rust" } });
    } finally {
      released = true;
      await held.release();
    }
    expect(await ending).toMatchObject({ isError: false, doc: { status: "ended" } });
  });
});
