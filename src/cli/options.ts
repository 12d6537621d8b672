import { UsageError } from "../core/errors";
import type { OptionSpec, OptionValues } from "./arguments";
import { parseArguments } from "./arguments";

/** Options every action takes; the others are the ones its entry in the commands table lists. */
const COMMON = ["vault", "folder", "json", "help"];

const OPTIONS = {
  vault: { type: "string" },
  folder: { type: "string" },
  topic: { type: "string" },
  summary: { type: "string" },
  next: { type: "string" },
  note: { type: "string" },
  at: { type: "string" },
  from: { type: "string" },
  to: { type: "string" },
  minutes: { type: "string" },
  interactive: { type: "boolean", short: "i" },
  "if-open": { type: "string" },
  "if-none": { type: "string" },
  "ignore-pending": { type: "boolean" },
  draft: { type: "string" },
  action: { type: "string" },
  all: { type: "boolean" },
  since: { type: "string" },
  until: { type: "string" },
  format: { type: "string" },
  out: { type: "string" },
  words: { type: "string" },
  id: { type: "string" },
  agent: { type: "string" },
  "count-away": { type: "boolean" },
  outcome: { type: "string" },
  install: { type: "string" },
  uninstall: { type: "string" },
  settings: { type: "string" },
  "as-of": { type: "string" },
  "minutes-per-week": { type: "string" },
  "sessions-per-week": { type: "string" },
  clear: { type: "boolean" },
  review: { type: "string" },
  "rest-days": { type: "string" },
  "freezes-per-month": { type: "string" },
  "min-minutes": { type: "string" },
  pause: { type: "string" },
  unpause: { type: "string" },
  recall: { type: "string" },
  rating: { type: "string" },
  done: { type: "boolean" },
  limit: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const satisfies Record<string, OptionSpec>;

export type Values = OptionValues<typeof OPTIONS>;

/** What the parser needs to know of a command: its name and the options it accepts. */
export interface CommandShape {
  name: string;
  options: object;
}

export interface Parsed {
  /** The action named after `session`; null for the general help and --version. */
  action: string | null;
  values: Values;
  help: boolean;
  version: boolean;
}

/** Parses argv against the commands table; a usage error (exit 2) for anything it cannot run. */
export function parse(argv: readonly string[], commands: readonly CommandShape[]): Parsed {
  const { values, positionals } = parseArguments(argv, OPTIONS);
  const names = commands.map((c) => c.name);
  if (values.version && positionals.length === 0) return { action: null, values, help: false, version: true };
  if (values.help && positionals.length <= 2) {
    const named = positionals[0] === "session" && names.includes(positionals[1] ?? "") ? positionals[1] : null;
    return { action: named, values, help: true, version: false };
  }
  if (positionals[0] !== "session") {
    throw new UsageError(
      positionals.length === 0
        ? "missing command: palee session <action>"
        : `unknown command "${positionals[0]}" (try: palee session --help)`,
    );
  }
  const action = positionals[1];
  if (action === undefined) {
    throw new UsageError(`missing action: palee session <${names.join("|")}>`);
  }
  const command = commands.find((c) => c.name === action);
  if (command === undefined) {
    throw new UsageError(`unknown action "${action}" (expected one of ${names.join(", ")})`);
  }
  if (positionals.length > 2) throw new UsageError(`unexpected argument "${positionals[2]}"`);
  for (const key of Object.keys(values)) {
    if (!COMMON.includes(key) && !Object.prototype.hasOwnProperty.call(command.options, key)) {
      throw new UsageError(`--${key} does not apply to "session ${action}"`);
    }
  }
  return { action, values, help: false, version: false };
}
