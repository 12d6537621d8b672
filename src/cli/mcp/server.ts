/**
 * The MCP server of `palee mcp` (contract §5), built on the official SDK: the tools of tools.ts, each run by
 * callTool, and the resources. Transport-free, so a test can connect it in memory as well as over stdio.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VERSION } from "../version";
import type { ServerSetup } from "./call";
import { callTool } from "./call";
import { registerResources } from "./resources";
import { TOOLS } from "./tools";

export const SERVER_NAME = "palee";

const INSTRUCTIONS =
  "PALEE Sessions records study sessions in an Obsidian vault. Call context before tutoring on a topic, " +
  "start_session when the learner begins, checkpoint with notes as they go, end_session with a summary and " +
  "the next action. Refusals are tool errors whose JSON carries a stable code (e.g. already_open, " +
  "nothing_open, long_silence, busy); results are the JSON documents of `palee session <action> --json`.";

export interface PaleeMcpServer {
  server: McpServer;
  /** Resolves once no tool call is running (so the answer to the last one is sent before closing). */
  drained: () => Promise<void>;
}

export function createServer(setup: ServerSetup): PaleeMcpServer {
  const server = new McpServer({ name: SERVER_NAME, version: VERSION }, { instructions: INSTRUCTIONS });
  // Writing calls run one after another, in the order they reach their tool, as the core's own queue runs
  // operations: a client that sends start and then end without waiting gets them in that order. Reads run at
  // once, beside them.
  let queue: Promise<unknown> = Promise.resolve();
  const running = new Set<Promise<unknown>>();
  const tracked = <T>(call: Promise<T>): Promise<T> => {
    running.add(call);
    void call.finally(() => running.delete(call)).catch(() => undefined);
    return call;
  };
  const track = <T>(run: () => Promise<T>): Promise<T> => {
    const call = queue.then(run, run);
    queue = call.catch(() => undefined);
    return tracked(call);
  };
  for (const spec of TOOLS) {
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.input,
        annotations: {
          readOnlyHint: spec.readOnly,
          destructiveHint: false,
          idempotentHint: spec.readOnly,
          openWorldHint: false,
        },
      },
      // A read takes no lock (contract §4): it never waits behind a writer that waits for one (issue 35 §2).
      (args: Record<string, unknown>) =>
        spec.readOnly ? tracked(callTool(spec, args, setup)) : track(() => callTool(spec, args, setup)),
    );
  }
  registerResources(server, setup);
  const drained = async (): Promise<void> => {
    while (running.size > 0) await Promise.allSettled([...running]);
  };
  return { server, drained };
}
