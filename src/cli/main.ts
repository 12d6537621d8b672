import { findCommand, COMMANDS } from "./commands/index";
import { errorReport, invoke } from "./invoke";
import { parse } from "./options";
import type { CliIo } from "./output";
import { Output, terminalIo } from "./output";
import { USAGE, commandHelp } from "./usage";
import { chooseVault } from "./vault";
import { hostExitCode } from "./hook/exit-code";
import { VERSION } from "./version";
import { processIo } from "./std-streams";
import type { EarlyListing } from "./device-memory/early-listing";

export type { CliIo } from "./output";
export { USAGE } from "./usage";

/**
 * Runs one CLI invocation and returns its exit code. Never throws; never prints a stack trace.
 * It only parses, builds the commands' context, runs the command the table names and maps errors to exit
 * codes. A bare `palee` prints the usage on stderr and exits 2 like any other missing command.
 */
export async function run(argv: readonly string[], rawIo: CliIo, early: EarlyListing | null = null): Promise<number> {
  // `palee mcp` speaks the protocol on the raw streams; loaded only when asked for (src/cli/mcp/).
  if (argv[0] === "mcp") return (await import("./mcp/command")).runMcp(argv.slice(1), rawIo);
  const io = terminalIo(rawIo); // text from notes never reaches the terminal raw (output.ts)
  // Until the arguments parse, a --json anywhere asks for the JSON error document.
  let out = new Output(io, argv.includes("--json"));
  try {
    if (argv.length === 0) io.stderr(`${USAGE}\n\n`);
    const { action, values, help, version } = parse(argv, COMMANDS);
    out = new Output(io, values.json === true);
    const command = action === null ? undefined : findCommand(action);
    if (version) {
      io.stdout(`${VERSION}\n`);
      return 0;
    }
    if (help || command === undefined) {
      io.stdout(`${command ? commandHelp(command) : USAGE}\n`);
      return 0;
    }
    const vault = await chooseVault({ vault: values.vault, folder: values.folder }, io.env, io.cwd);
    const code = await invoke(command, values, vault, io, out, early);
    out.finish();
    return code;
  } catch (caught) {
    out.finish();
    const { error, message, doc } = errorReport(caught);
    const exitCode = hostExitCode(argv, error.exitCode); // the hook never exits 2 (src/cli/hook/exit-code.ts)
    if (out.json) out.doc({ ...doc, exit_code: exitCode });
    out.error(message);
    if (io.env.PALEE_DEBUG && caught instanceof Error && caught.stack) io.stderr(`${caught.stack}\n`);
    return exitCode;
  }
}

/**
 * Runs the process's own invocation (process.argv) on its standard streams and sets its exit code: the `palee`
 * binary (bin.ts), with the session folder's listing it began before loading this file.
 */
export function runProcess(early: EarlyListing | null): void {
  let lostOutput: unknown = null;
  const failed = (error: unknown): void => {
    lostOutput ??= error;
  };
  const io = processIo(failed);
  process.once("exit", () => {
    if (lostOutput === null || process.exitCode !== 0) return;
    process.exitCode = 5;
    io.stderr(`palee: could not write the output: ${(lostOutput as Error).message}\n`);
  });
  void run(process.argv.slice(2), io, early).then((code) => {
    process.exitCode = code;
  });
}

if (require.main === module) runProcess(null);
