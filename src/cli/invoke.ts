/**
 * One action, run the way every face of the CLI runs it: `palee session …` (main.ts) and each tool of
 * `palee mcp` (mcp/call.ts) call `invoke`, so both hold the same lock, build the same context and reach the
 * same command code; `errorReport` turns a failure into the one line and the JSON error document both print.
 */
import type { OffsetAt } from "../core/time";
import type { PaleeError } from "../core/errors";
import { LongSilenceError, TopicLookupError, afterSaveError, toPaleeError } from "../core/errors";
import { PaleeSessions } from "../core/sessions";
import { NodeStore } from "../node/node-store";
import { deviceName, systemClock, systemRandom } from "../node/system-ports";
import { trashStaleTempFiles } from "../core/records/temp-files";
import { BOUNDED_VIEWS } from "../core/operations/bounded-views";
import type { CorePorts, DeviceMemory } from "../core/ports";
import type { SessionsOptions } from "../core/sessions";
import type { Command, CommandContext } from "./commands/command";
import { writes } from "./commands/index";
import type { CliMemory } from "./device-memory/open-memory";
import { openMemory } from "./device-memory/open-memory";
import type { EarlyListing } from "./device-memory/early-listing";
import { provedEarly } from "./device-memory/early-listing";
import { lockVault } from "./lock";
import type { Values } from "./options";
import { vaultStateDir } from "./state-dir";
import type { CliIo, Output } from "./output";
import type { VaultChoice } from "./vault";

/**
 * The core as one CLI invocation builds it on `store`: bounded list and views (issue 13, no metadata cache
 * here), and the temp-file sweep (rebuild's, and after a start or an end).
 */
function sessionsOn(
  store: CorePorts["store"],
  vault: VaultChoice,
  device: string,
  tempFiles: SessionsOptions["tempFiles"] = trashStaleTempFiles,
  memory?: DeviceMemory,
): PaleeSessions {
  const ports = { store, clock: systemClock, random: systemRandom, device, memory };
  return new PaleeSessions(ports, vault.layout, { ...BOUNDED_VIEWS, tempFiles, graceMs: vault.graceMs });
}

/** A fresh core on the vault, without the device memory (palee mcp's resources). */
export function coreFor(vault: VaultChoice, env: NodeJS.ProcessEnv): { core: PaleeSessions; store: NodeStore } {
  const store = new NodeStore(vault.root);
  return { core: sessionsOn(store, vault, deviceName(env)), store };
}

/**
 * Runs `command` on the chosen vault: takes the vault lock when it writes (contract §4 "One at a time"),
 * before anything is written, and releases it on every way out. Returns the command's exit code; a refusal
 * or failure is thrown for the caller to report (`errorReport`).
 */
export async function invoke(
  command: Command,
  values: Values,
  vault: VaultChoice,
  io: CliIo,
  out: Output,
  early: EarlyListing | null = null,
): Promise<number> {
  // Standard input is read before the lock is taken: a writer of stdin that is slow never holds the vault.
  const prepared = command.prepare ? await command.prepare(values, io) : null;
  const writing = writes(command) && prepared?.writes !== false;
  // A writer makes the device memory's folder (refused inside the vault) before it takes the lock.
  if (writing) await vaultStateDir(vault.root, io.env);
  const lock = writing ? await lockVault(vault.root, io.env) : null;
  let cache: CliMemory | null = null;
  try {
    for (const w of vault.warnings) out.warn(w);
    const device = deviceName(io.env);
    // The session folder as listed when the process began, if no writer has held the lock since; index.md kept
    // from one read to the next (the topic check's, then the operation's).
    // Under the lock, every write first checks that the lock is still this process's (a lost one: exit 4).
    // index.md, a view derived wholly from the notes, is written without a flush (NodeStore's `derived`).
    const index = vault.layout.index;
    const store = new NodeStore(vault.root, provedEarly(early, lock), index, lock?.check, [index]);
    // The device memory (issue 22): saved only by a writer, before the lock goes.
    const use = {
      writes: lock !== null,
      fresh: command.name === "rebuild",
      now: () => systemClock.now(),
      notesWithin: command.readsNotesWithin,
    };
    cache = await openMemory(store, vault.layout, io.env, use);
    const core = sessionsOn(cache.store, vault, device, cache.sweep(trashStaleTempFiles), cache.memory);
    const offsetAt: OffsetAt = (instant) => systemClock.offsetMinutes(instant);
    const ctx: CommandContext = { core, out, io, device, store, clock: systemClock, offsetAt, notices: [] };
    const code = prepared ? await prepared.run(ctx) : await command.run(ctx, values);
    if (code === 0) for (const notice of ctx.notices) io.stderr(`${notice}\n`);
    return code;
  } finally {
    // The device-local cache is saved only while the lock is still ours; a lost lock's refusal says the rest.
    if (lock?.compromised() == null) await cache?.finish();
    await lock?.release();
  }
}

export interface ErrorReport {
  error: PaleeError;
  /** One line, for stderr. */
  message: string;
  /** The `--json` error document: `{"status":"error","code","exit_code","message",…details}`. */
  doc: Record<string, unknown>;
}

/** A failure as the CLI reports it; a failure after a session note was written says first what was saved. */
export function errorReport(caught: unknown): ErrorReport {
  const error = toPaleeError(afterSaveError(caught) ?? caught);
  // One line, whatever the message quotes (a value with a line break, a multi-line library message).
  const oneLine = error.message.replace(/\s*[\r\n]+\s*/g, " ").trim();
  const message = error.kind === "unexpected" ? `unexpected error: ${oneLine}` : oneLine;
  const details = error instanceof LongSilenceError || error instanceof TopicLookupError ? error.details : {};
  const doc = { status: "error", code: error.kind, exit_code: error.exitCode, message, ...details };
  return { error, message, doc };
}
