/**
 * Every `palee session` action, in the order the usage names them. This table is the CLI's one list of
 * commands: main.ts dispatches through it, the parser refuses options a command does not list, and the
 * help (usage.ts) is written from it.
 */
import type { Command } from "./command";
import { context } from "./context";
import { continueCommand } from "./continue";
import { draft } from "./draft";
import { end } from "./end";
import { exportCommand } from "./export";
import { list } from "./list";
import { log } from "./log";
import { pause } from "./pause";
import { rebuild } from "./rebuild";
import { recover } from "./recover";
import { start } from "./start";
import { latest } from "./latest";
import { show } from "./show";
import { stats } from "./stats";
import { status } from "./status";
import { hook } from "./hook";
import { goal } from "./goal";
import { year } from "./year";
import { next } from "./next";

export const COMMANDS: readonly Command[] = [
  start,
  draft,
  end,
  list,
  status,
  recover,
  rebuild,
  pause,
  continueCommand,
  log,
  stats,
  exportCommand,
  context,
  show,
  latest,
  hook,
  goal,
  year,
  next,
];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/**
 * The actions that only read (contract §4 "One at a time": they take no lock). Every other action writes (a
 * draft, a note, a view, an export file) and holds the vault lock for its whole operation; a new command is a
 * writer until it is named here (`goal` says in its `prepare` when it only reads).
 */
const READ_ONLY: ReadonlySet<string> = new Set([
  "list",
  "status",
  "stats",
  "context",
  "show",
  "latest",
  "year",
  "next",
]);

export function writes(command: Command): boolean {
  return !READ_ONLY.has(command.name);
}
