/**
 * Helpers for the `palee mcp` suites: the SDK's own client, connected to the built CLI over stdio
 * (`node dist/cli.js mcp --vault <vault>`), and the tool results read back as the JSON documents they carry.
 */
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, DEVICE, cleanupVaults, testCacheDir } from "./support";

export interface Connected {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr: () => string;
  close: () => Promise<void>;
}

/**
 * A file's servers: `serve` spawns and connects one (connectStdio); after each test every one is closed and the
 * vaults are removed. Call once at the top level of a test file.
 */
export function servedPerTest(): (vault: string, env?: Record<string, string>) => Promise<Connected> {
  const open: Connected[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close();
    cleanupVaults();
  });
  return async (vault, env = {}) => {
    const connected = await connectStdio(vault, env);
    open.push(connected);
    return connected;
  };
}

/** Spawns `palee mcp --vault <vault>` and connects the SDK client to it. */
export async function connectStdio(vault: string, env: Record<string, string> = {}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--vault", vault],
    cwd: path.resolve(__dirname, "../.."),
    env: { PATH: process.env.PATH ?? "", PALEE_DEVICE: DEVICE, TZ: "UTC", PALEE_CACHE_DIR: testCacheDir(), ...env },
    stderr: "pipe",
  });
  let said = "";
  transport.stderr?.on("data", (chunk: Buffer) => (said += chunk.toString("utf8")));
  const client = new Client({ name: "palee-tests", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => said, close: () => client.close() };
}

export interface ToolOutcome {
  isError: boolean;
  /** The first text content parsed: the CLI's JSON document (or its error document). */
  doc: Record<string, unknown>;
  /** Every text content, joined. */
  text: string;
}

type CallResult = Awaited<ReturnType<Client["callTool"]>>;

export function outcome(result: CallResult): ToolOutcome {
  const texts = (result.content as Array<{ type: string; text?: string }>)
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "");
  let doc: Record<string, unknown> = {};
  try {
    doc = JSON.parse(texts[0] ?? "") as Record<string, unknown>;
  } catch {
    doc = {};
  }
  return { isError: result.isError === true, doc, text: texts.join("\n") };
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
  return outcome(await client.callTool({ name, arguments: args }));
}
