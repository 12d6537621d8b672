import type { OffsetAt } from "../core/time";
import { LongSilenceError, TopicLookupError, afterSaveError, toPaleeError } from "../core/errors";
import { PaleeSessions } from "../core/sessions";
import { NodeStore } from "../node/node-store";
import { deviceName, systemClock, systemRandom } from "../node/system-ports";
import { trashStaleTempFiles } from "../core/temp-files";
import { BOUNDED_VIEWS } from "../core/bounded";
import type { CommandContext } from "./commands/command";
import { COMMANDS, findCommand, writes } from "./commands/index";
import type { VaultLock } from "./lock";
import { lockVault } from "./lock";
import { parse } from "./options";
import type { CliIo } from "./output";
import { Output, terminalIo } from "./output";
import { USAGE, commandHelp } from "./usage";
import { chooseVault } from "./vault";
import { hostExitCode } from "./hook/exit-code";
import { VERSION } from "./version";

export type { CliIo } from "./output";
export { USAGE } from "./usage";

/** What the CLI does without a metadata cache: bounded list and views (issue 13), and rebuild's temp sweep. */
const CORE_OPTIONS = { ...BOUNDED_VIEWS, tempFiles: trashStaleTempFiles };

/**
 * Runs one CLI invocation and returns its exit code. Never throws; never prints a stack trace.
 * It only parses, builds the commands' context, runs the command the table names and maps errors to exit
 * codes. A bare `palee` prints the usage on stderr and exits 2 like any other missing command.
 */
export async function run(argv: readonly string[], rawIo: CliIo): Promise<number> {
  const io = terminalIo(rawIo); // text from notes never reaches the terminal raw (output.ts)
  // Until the arguments parse, a --json anywhere asks for the JSON error document.
  let out = new Output(io, argv.includes("--json"));
  let lock: VaultLock | null = null;
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
    // Standard input is read before the lock is taken: a writer of stdin that is slow never holds the vault.
    const prepared = command.prepare ? await command.prepare(values, io) : null;
    // Contract §4 "One at a time": after the arguments and the vault are known, before anything is written.
    lock = writes(command) && prepared?.writes !== false ? await lockVault(vault.root, io.env) : null;
    const device = deviceName(io.env);
    const store = new NodeStore(vault.root);
    const ports = { store, clock: systemClock, random: systemRandom, device };
    for (const w of vault.warnings) out.warn(w);
    const core = new PaleeSessions(ports, vault.layout, { ...CORE_OPTIONS, graceMs: vault.graceMs });
    const offsetAt: OffsetAt = (instant) => systemClock.offsetMinutes(instant);
    const ctx: CommandContext = { core, out, io, device, store, clock: systemClock, offsetAt, notices: [] };
    const code = prepared ? await prepared.run(ctx) : await command.run(ctx, values);
    if (code === 0) for (const notice of ctx.notices) io.stderr(`${notice}\n`);
    out.finish();
    return code;
  } catch (caught) {
    out.finish();
    // A failure after a session note was written says first what was saved (saved_incomplete), for every action.
    const error = toPaleeError(afterSaveError(caught) ?? caught);
    // One line, whatever the message quotes (a value with a line break, a multi-line library message).
    const oneLine = error.message.replace(/\s*[\r\n]+\s*/g, " ").trim();
    const message = error.kind === "unexpected" ? `unexpected error: ${oneLine}` : oneLine;
    const details = error instanceof LongSilenceError || error instanceof TopicLookupError ? error.details : {};
    const exitCode = hostExitCode(argv, error.exitCode); // the hook never exits 2 (src/cli/hook/exit-code.ts)
    if (out.json) out.doc({ status: "error", code: error.kind, exit_code: exitCode, message, ...details });
    out.error(message);
    if (io.env.PALEE_DEBUG && caught instanceof Error && caught.stack) io.stderr(`${caught.stack}\n`);
    return exitCode;
  } finally {
    await releaseLock(lock, out);
  }
}

/** Releases the vault lock on every way out; says so when it was lost while held (never a stack trace). */
async function releaseLock(lock: VaultLock | null, out: Output): Promise<void> {
  if (lock === null) return;
  await lock.release();
  const lost = lock.compromised();
  if (lost !== null) {
    out.warn(`the vault lock was lost while writing (${lost}): another palee process may have written meanwhile`);
  }
}

/**
 * A standard stream's writer that never throws: once the reader has gone (EPIPE, as in `palee … | head -1`)
 * the rest of the output is dropped quietly and the exit code stays the operation's. Any other write error
 * (a full disk) is reported by `failed`, so the output is not lost in silence.
 */
function quietWriter(stream: NodeJS.WriteStream, failed: (error: unknown) => void): (text: string) => void {
  let gone = false;
  stream.on("error", (error) => {
    gone = true;
    if ((error as { code?: unknown }).code !== "EPIPE") failed(error);
  });
  return (text) => {
    if (!gone) stream.write(text);
  };
}

if (require.main === module) {
  let lostOutput: unknown = null;
  const failed = (error: unknown): void => {
    lostOutput ??= error;
  };
  const stderr = quietWriter(process.stderr, failed);
  process.once("exit", () => {
    if (lostOutput === null || process.exitCode !== 0) return;
    process.exitCode = 5;
    stderr(`palee: could not write the output: ${(lostOutput as Error).message}\n`);
  });
  void run(process.argv.slice(2), {
    stdout: quietWriter(process.stdout, failed),
    stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    isTerminal: process.stdin.isTTY === true && process.stdout.isTTY === true,
  }).then((code) => {
    process.exitCode = code;
  });
}
