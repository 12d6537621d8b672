import { LongSilenceError, UsageError, toPaleeError } from "../core/errors";
import type { OpenSession, RecoverAction, RecoverResult, StartResult } from "../core/sessions";
import { PaleeSessions } from "../core/sessions";
import type { Draft } from "../core/records";
import { skippedWarning } from "../core/records";
import { draftJson, openJson, sessionJson, skippedJson } from "../core/formats/json";
import { formatDuration, formatElapsed } from "../core/time";
import { NodeStore } from "../node/node-store";
import { deviceName, systemClock, systemRandom } from "../node/system-ports";
import { trashStaleTempFiles } from "../core/temp-files";
import { BOUNDED_VIEWS } from "../core/bounded";
import type { Action, Values } from "./options";
import { USAGE, parse } from "./options";
import { reportAway, runContinue, runEnd, runLog, runPause } from "./honest-time";
import { runExport, runStats } from "./insight";
import { LineReader } from "./prompt";
import type { CliIo, Outcome } from "./output";
import { Output } from "./output";
import { chooseVault } from "./vault";

export type { CliIo } from "./output";
export { USAGE } from "./options";

function describeDraft(d: Draft): string {
  const started = d.startedAt ?? "(unknown)";
  const checkpoint = d.lastCheckpointAt ?? "(none)";
  const device = d.device ?? "(unknown)";
  return `${d.draftId}  ${d.topicId}  started ${started}  last checkpoint ${checkpoint}  device ${device}`;
}

function recoverAction(value: string | undefined): RecoverAction {
  if (value === "resume" || value === "save" || value === "discard" || value === "ignore") return value;
  const got = value === undefined ? "" : ` (got "${value}")`;
  throw new UsageError(`--action must be resume, save, discard or ignore${got}`);
}

/** What the CLI does without a metadata cache: bounded list and views (issue 13), and rebuild's temp sweep. */
const CORE_OPTIONS = { ...BOUNDED_VIEWS, tempFiles: trashStaleTempFiles };

const ANSWERS: Record<string, RecoverAction> = { r: "resume", s: "save", d: "discard", i: "ignore" };

async function askAction(reader: LineReader, io: CliIo, draftId: string, description: string): Promise<RecoverAction> {
  for (;;) {
    io.stderr(`${description}\n[R]esume [S]ave [D]iscard [I]gnore? `);
    const line = await reader.next();
    if (line === null) {
      io.stderr("\n");
      throw new UsageError(`no answer for ${draftId}: input ended, nothing more was changed`);
    }
    const action = ANSWERS[line.trim().toLowerCase().slice(0, 1)];
    if (action) return action;
    io.stderr(`Please answer r, s, d or i.\n`);
  }
}

function recoveryLine(r: RecoverResult): string {
  switch (r.status) {
    case "resumed":
      return (
        `Resumed the session on ${r.open.topicId} (${r.draftId}, started ${r.open.startedAt}, ` +
        `${formatElapsed(r.open.elapsedSeconds * 1000)} so far).`
      );
    case "saved":
      return r.alreadySaved
        ? `${r.draftId} was already saved as ${r.session.sessionId}; nothing to do.`
        : `Saved ${r.draftId} as ${r.session.sessionId}: ${r.session.topicId}, ` +
            `${formatDuration(r.session.durationMinutes)} (interrupted).`;
    case "discarded":
    case "ignored":
      if (r.alreadySavedIn) return `${r.draftId} was already saved as ${r.alreadySavedIn}; nothing more to do.`;
      return r.status === "discarded"
        ? `Moved ${r.draftId} to the trash.`
        : `Left ${r.draftId} as it is; "palee session start --ignore-pending" starts a new session while it waits.`;
  }
}

function recoveryJson(r: RecoverResult) {
  if (r.status === "saved") return { status: "saved", draft_id: r.draftId, session: sessionJson(r.session) };
  if (r.status === "resumed") return { status: "resumed", draft_id: r.draftId, open: openJson(r.open) };
  return { status: r.status, draft_id: r.draftId };
}

const describePending = (d: Draft): string => `Unconfirmed draft ${describeDraft(d)}`;

function describeOpen(o: OpenSession): string {
  const checkpoint = o.lastCheckpointAt ?? "(none)";
  const device = o.device ?? "(unknown)";
  const started = `started ${o.startedAt}`;
  return `Open session ${o.draftId}  ${o.topicId}  ${started}  last checkpoint ${checkpoint}  device ${device}`;
}

async function runStart(core: PaleeSessions, values: Values, out: Output, io: CliIo, device: string): Promise<Outcome> {
  const ifOpen = values["if-open"] ?? "refuse";
  if (ifOpen !== "refuse" && ifOpen !== "keep") {
    throw new UsageError(`--if-open must be refuse or keep (got "${ifOpen}")`);
  }
  const ignored = new Set<string>();
  let reader: LineReader | null = null;
  try {
    for (;;) {
      const result: StartResult = await core.start({
        topic: values.topic ?? null,
        ifOpen,
        ignoreDrafts: ignored,
        ignorePending: values["ignore-pending"] === true,
      });
      const interactive = values.interactive === true;
      const asks = result.status === "drafts_pending" || result.status === "already_open";
      if (!interactive || !asks) return reportStart(result, out, device);
      reader ??= new LineReader(io.stdin);
      // The open session itself (e.g. interrupted by a crash) can be resolved here too: Resume keeps it.
      const choices =
        result.status === "drafts_pending"
          ? result.drafts.map((d) => ({ id: d.draftId, description: describePending(d) }))
          : [{ id: result.open.draftId, description: describeOpen(result.open) }];
      for (const choice of choices) {
        const done = await core.recover(choice.id, await askAction(reader, io, choice.id, choice.description));
        for (const w of done.warnings) out.warn(w);
        if (done.status === "ignored") {
          if (result.status === "already_open") return reportStart(result, out, device);
          ignored.add(choice.id);
          continue;
        }
        if (done.status === "resumed") {
          if (out.json) out.doc(recoveryJson(done));
          out.text(recoveryLine(done));
          return 0;
        }
        io.stderr(`${recoveryLine(done)}\n`);
      }
    }
  } finally {
    reader?.close();
  }
}

/** What ends another session from this device: only what will work here (SPEC §4 Devices). */
function howToEnd(o: OpenSession, device: string): string {
  const saveHere = `"palee session recover --draft ${o.draftId} --action save" ends it at its last checkpoint`;
  if (o.device === null || o.device === device) {
    return `"palee session end" ends it now, ${saveHere}, --if-open keep leaves it`;
  }
  // Another device's session: end refuses it here; Save of that very draft works once its draft has synced.
  const there = `end it on ${o.device}`;
  return o.lastCheckpointAt === null
    ? `${there} (its draft has not synced here), or --if-open keep leaves it`
    : `${there}, or here ${saveHere}; --if-open keep leaves it`;
}

function reportStart(result: StartResult, out: Output, device: string): Outcome {
  switch (result.status) {
    case "started":
      for (const w of result.warnings) out.warn(w);
      if (out.json) {
        out.doc({
          status: "started",
          topic_id: result.topicId,
          started_at: result.startedAt,
          draft_id: result.draftId,
          last_session: result.lastSession,
          working_memory: result.workingMemory,
        });
      }
      out.text(`Started a session on ${result.topicId} at ${result.startedAt} (draft ${result.draftId}).`);
      out.text(`Last session: ${result.lastSession ?? "none"}`);
      out.text(`\nWorking memory:\n${result.workingMemory}`);
      return 0;
    case "drafts_pending":
      if (out.json) out.doc({ status: "drafts_pending", drafts: result.drafts.map(draftJson) });
      for (const d of result.drafts) out.text(`  ${describeDraft(d)}`);
      out.error(
        `${result.drafts.length} unconfirmed draft(s) must be resolved first: "palee session start -i" or ` +
          `"palee session recover --draft <id> --action <resume|save|discard>"; ` +
          `or start anyway, leaving them as they are: "palee session start --ignore-pending"`,
      );
      return 2;
    case "already_open":
    case "kept": {
      const o = result.open;
      if (out.json) out.doc({ status: result.status, open: openJson(o) });
      if (result.status === "kept") {
        out.text(`Kept the open session on ${o.topicId} (device ${o.device ?? "unknown"}, started ${o.startedAt}).`);
        return 0;
      }
      out.error(
        `a session is already open: ${o.topicId} on ${o.device ?? "an unknown device"} since ${o.startedAt}, ` +
          `last checkpoint ${o.lastCheckpointAt ?? "unknown"} (${o.draftId}); ` +
          howToEnd(o, device),
      );
      return 2;
    }
  }
}

async function runRecover(core: PaleeSessions, values: Values, out: Output, io: CliIo): Promise<Outcome> {
  if (values.interactive && values.draft === undefined) {
    const drafts = (await core.list()).drafts;
    if (drafts.length === 0) {
      if (out.json) out.doc({ status: "none", drafts: [] });
      out.text("No drafts to recover.");
      return 0;
    }
    const reader = new LineReader(io.stdin);
    const results: RecoverResult[] = [];
    try {
      for (const draft of drafts) {
        const action = await askAction(reader, io, draft.draftId, describePending(draft));
        const done = await core.recover(draft.draftId, action);
        for (const w of done.warnings) out.warn(w);
        results.push(done);
      }
    } finally {
      reader.close();
    }
    if (out.json) out.doc({ status: "recovered", results: results.map(recoveryJson) });
    for (const r of results) out.text(recoveryLine(r));
    return 0;
  }
  if (values.draft === undefined) {
    throw new UsageError("recover needs --draft <id> --action <resume|save|discard|ignore>, or -i");
  }
  const result = await core.recover(values.draft, recoverAction(values.action));
  for (const w of result.warnings) out.warn(w);
  if (out.json) out.doc(recoveryJson(result));
  out.text(recoveryLine(result));
  return 0;
}

async function runAction(
  action: Action,
  core: PaleeSessions,
  values: Values,
  out: Output,
  io: CliIo,
  face: { device: string; store: NodeStore },
): Promise<Outcome> {
  const { device, store } = face;
  const offsetAt = (at: number): number => systemClock.offsetMinutes(at);
  switch (action) {
    case "start":
      return runStart(core, values, out, io, device);
    case "draft": {
      const checkpoint = { topic: values.topic ?? null, notes: values.note ?? null };
      const { created, opened, draft, away, warnings } = await core.checkpoint(checkpoint);
      for (const w of warnings) out.warn(w);
      reportAway(away, io, offsetAt);
      if (out.json) out.doc({ status: "checkpointed", created, draft: draftJson(draft) });
      out.text(
        `${created ? "Created" : "Updated"} ${draft.draftId} for ${draft.topicId} ` +
          `(started ${draft.startedAt ?? "unknown"}, checkpoint ${draft.lastCheckpointAt ?? "now"}).`,
      );
      if (opened) out.text(`No session was open: this draft is now the open session ("palee session end" ends it).`);
      return 0;
    }
    case "end":
      return runEnd(core, values, out, io, offsetAt);
    case "pause":
      return runPause(core, values, out);
    case "continue":
      return runContinue(core, values, out);
    case "log":
      return runLog(core, values, out);
    case "list": {
      const r = await core.list({ all: values.all ?? false });
      for (const s of r.skipped) out.warn(skippedWarning(s));
      for (const w of r.warnings) out.warn(w);
      if (out.json) {
        out.doc({
          confirmed: r.confirmed.map(sessionJson),
          drafts: r.drafts.map(draftJson),
          total_confirmed: r.totalConfirmed,
          total_drafts: r.totalDrafts,
          skipped: r.skipped.map(skippedJson),
          // Damaged paused_at / break_minutes of usable records (version 2); absent when there are none.
          ...(r.warnings.length > 0 ? { warnings: r.warnings } : {}),
        });
        return 0;
      }
      const newest = ` (newest ${r.confirmed.length}; --all shows every one)`;
      const shown = r.confirmed.length < r.totalConfirmed ? newest : "";
      out.text(`Confirmed sessions: ${r.totalConfirmed}${shown}`);
      for (const s of r.confirmed) {
        const breaks = s.breakMinutes > 0 ? ` (+${formatDuration(s.breakMinutes)} break)` : "";
        const duration = formatDuration(s.durationMinutes);
        out.text(`  ${s.sessionId}  ${s.topicId}  ${s.startedAt}  ${duration}${breaks}  ${s.outcome}`);
      }
      out.text(`Drafts: ${r.totalDrafts}`);
      for (const d of r.drafts) {
        const paused = d.pausedAt === null ? "" : `  paused since ${d.pausedAt}`;
        const breaks = d.breakMinutes > 0 ? `  breaks ${formatDuration(d.breakMinutes)}` : "";
        out.text(`  ${describeDraft(d)}${paused}${breaks}${d.draftId === r.openDraftId ? "  (open session)" : ""}`);
      }
      return 0;
    }
    case "status": {
      const { open, hotState, warnings } = await core.status();
      for (const w of warnings) out.warn(w);
      if (hotState === "corrupt" || hotState === "schema-invalid") {
        out.warn(`${core.layout.hot} is ${hotState}; "palee session rebuild" regenerates it`);
      }
      if (out.json) out.doc({ open: open ? openJson(open) : null });
      if (!open) out.text("No open session.");
      else {
        out.text(`Open session: ${open.topicId} on ${open.device ?? "unknown device"}, started ${open.startedAt}`);
        const studied = formatElapsed(open.elapsedSeconds * 1000);
        const breaks = open.breakMinutes ? ` studied, ${formatDuration(open.breakMinutes)} of breaks not counted` : "";
        if (open.pausedAt !== null) out.text(`Paused since ${open.pausedAt} ("palee session continue" goes on)`);
        const checkpoint = open.lastCheckpointAt ?? "(none)";
        out.text(`Elapsed: ${studied}${breaks}; last checkpoint ${checkpoint}; draft ${open.draftId}`);
      }
      return 0;
    }
    case "recover":
      return runRecover(core, values, out, io);
    case "stats":
    case "export": {
      const run = action === "stats" ? runStats : runExport;
      return run(core, { ...values, json: out.json }, { ...io, clock: systemClock, store });
    }
    case "rebuild": {
      const r = await core.rebuild();
      for (const s of r.skipped) out.warn(skippedWarning(s));
      for (const w of r.warnings) out.warn(w);
      if (out.json) {
        out.doc({ status: "rebuilt", total_confirmed: r.totalConfirmed, skipped: r.skipped.map(skippedJson) });
      }
      out.text(`Rebuilt ${core.layout.hot} and ${core.layout.index} from ${r.totalConfirmed} session(s).`);
      return 0;
    }
  }
}

/** Runs one CLI invocation and returns its exit code. Never throws; never prints a stack trace. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  // Until the arguments parse, a --json anywhere asks for the JSON error document.
  let out = new Output(io, argv.includes("--json"));
  try {
    const { action, values, help } = parse(argv);
    out = new Output(io, values.json === true);
    if (help || action === null) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const vault = await chooseVault({ vault: values.vault, folder: values.folder }, io.env, io.cwd);
    const device = deviceName(io.env);
    const store = new NodeStore(vault.root);
    const ports = { store, clock: systemClock, random: systemRandom, device };
    const core = new PaleeSessions(ports, vault.layout, CORE_OPTIONS);
    return await runAction(action, core, values, out, io, { device, store });
  } catch (caught) {
    const error = toPaleeError(caught);
    // One line, whatever the message quotes (a value with a line break, a multi-line library message).
    const oneLine = error.message.replace(/\s*[\r\n]+\s*/g, " ").trim();
    const message = error.kind === "unexpected" ? `unexpected error: ${oneLine}` : oneLine;
    const details = error instanceof LongSilenceError ? error.details : {};
    if (out.json) out.doc({ status: "error", code: error.kind, exit_code: error.exitCode, message, ...details });
    out.error(message);
    if (io.env.PALEE_DEBUG && caught instanceof Error && caught.stack) io.stderr(`${caught.stack}\n`);
    return error.exitCode;
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
