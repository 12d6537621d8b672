/** The one shape of a CLI command: what it gets (the context, the parsed options) and how it is described. */
import type { OffsetAt } from "../../core/time";
import type { Clock } from "../../core/ports";
import type { PaleeSessions } from "../../core/sessions";
import type { NodeStore } from "../../node/node-store";
import type { Values } from "../options";
import type { CliIo, Outcome, Output } from "../output";

/** Everything a command may talk to; built once per invocation by main.ts. */
export interface CommandContext {
  core: PaleeSessions;
  out: Output;
  io: CliIo;
  /** This device's name (PALEE_DEVICE, else the host name). */
  device: string;
  store: NodeStore;
  clock: Clock;
  /** The local time zone's offset from UTC, in minutes, at an instant. */
  offsetAt: OffsetAt;
  /** Notices said on stderr once the command succeeded (exit 0), e.g. "new topic T-…" (src/cli/topic.ts). */
  notices: string[];
}

export type OptionName = Exclude<keyof Values, "vault" | "folder" | "json" | "help" | "version">;

export interface Command {
  /** The action, as typed after `palee session`. */
  name: string;
  /** One line: what the command does (per-action help). */
  summary: string;
  /** The options it accepts beyond the common ones, each with a short description; any other is refused. */
  options: Partial<Record<OptionName, string>>;
  /** One command line that shows it in use. */
  example: string;
  run: (ctx: CommandContext, values: Values) => Promise<Outcome>;
  /**
   * How far back from now the confirmed notes it reads are named as a rule, when not as far as a start's week
   * (draft, end: OPEN_SESSION_SPAN_MS, device-memory/kept-fields.ts): the device cache asks ahead only their files'
   * identities (device-memory/open-memory.ts).
   */
  readsNotesWithin?: number;
  /**
   * What the command reads before the vault is locked (contract §4 "One at a time"): standard input, so a slow
   * or silent writer of stdin never holds the lock. When given, main.ts runs the `run` it returns instead of the
   * command's own, under the lock unless it says it writes nothing.
   */
  prepare?: (values: Values, io: CliIo) => Promise<Prepared>;
}

/** A command whose input is read: what it does next, and whether that writes (default: as the action does). */
export interface Prepared {
  run: (ctx: CommandContext) => Promise<Outcome>;
  writes?: boolean;
}
