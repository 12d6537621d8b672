/**
 * `palee mcp [--vault <dir>] [--folder <path>]` (contract §5, version 3): serves the Model Context Protocol on
 * standard input and output until the client closes its end. stdout carries only protocol messages; what the
 * server has to say goes to stderr. It writes nothing until a tool that writes is called, and uses no network.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { UsageError } from "../../core/errors";
import { parseArguments } from "../arguments";
import { errorReport } from "../invoke";
import type { CliIo } from "../output";
import { terminalIo } from "../output";
import { chooseVault } from "../vault";
import type { ServerSetup } from "./call";
import { createServer } from "./server";
import { MESSAGE_MAX_BYTES, boundedLines, tooLongAnswer } from "./bounded-input";

export const MCP_USAGE = `Usage: palee mcp [--vault <dir>] [--folder <path>]

Serves the Model Context Protocol on standard input/output for an AI assistant (an MCP client): the tools
status, context, list_sessions, show_session, stats, start_session, checkpoint, pause, continue_session,
end_session and log_session, and the resources palee://working-memory and palee://session/{id}.
  --vault <dir>        vault root (default: $PALEE_VAULT, else the current directory)
  --folder <path>      session folder inside the vault (default: the plugin's setting, else "palee")
  -h, --help           this help`;

const OPTIONS = {
  vault: { type: "string" },
  folder: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export interface McpStreams {
  input: NodeJS.ReadableStream & { pause: () => unknown };
  output: NodeJS.WritableStream;
}

/** Runs the server until the client closes standard input; exit 0, or 2 for a usage error or a bad vault. */
export async function runMcp(
  argv: readonly string[],
  rawIo: CliIo,
  streams: McpStreams = { input: process.stdin, output: process.stdout },
): Promise<number> {
  const log = terminalIo(rawIo).stderr;
  let setup: ServerSetup;
  try {
    const { values, positionals } = parseArguments(argv, OPTIONS);
    if (values.help) {
      rawIo.stdout(`${MCP_USAGE}\n`);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}" (see palee mcp --help)`);
    const options = { vault: values.vault, folder: values.folder };
    const choose = () => chooseVault(options, rawIo.env, rawIo.cwd);
    // A vault that cannot be used is refused now, before the client is told the server is ready.
    const first = await choose();
    setup = { chooseVault: choose, env: rawIo.env, cwd: rawIo.cwd };
    log(`palee mcp: serving ${first.root} (session folder ${first.layout.folder}) on stdio\n`);
  } catch (caught) {
    const { error, message } = errorReport(caught);
    log(`palee: ${message}\n`);
    return error.exitCode;
  }
  const { server, drained } = createServer(setup);
  // A request over MESSAGE_MAX_BYTES is answered with an error and skipped; the server goes on serving.
  const refuse = (head: string) => {
    log(`palee mcp: refused a request over ${MESSAGE_MAX_BYTES} bytes\n`);
    streams.output.write(tooLongAnswer(head, MESSAGE_MAX_BYTES));
  };
  const input = streams.input.pipe(boundedLines(MESSAGE_MAX_BYTES, refuse));
  const transport = new StdioServerTransport(input, streams.output as NodeJS.WriteStream, {
    maxBufferSize: 2 * MESSAGE_MAX_BYTES + 2,
  });
  const closed = new Promise<void>((resolve) => {
    streams.input.once("end", resolve);
    streams.input.once("close", resolve);
    transport.onclose = resolve;
  });
  transport.onerror = (error) => log(`palee mcp: ${error.message}\n`);
  await server.connect(transport);
  await closed;
  // A call still running when the client closed its end finishes, and its answer is sent, before the close.
  await drained();
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  return 0;
}
