import { UsageError } from "../core/errors";
import type { OptionSpec, OptionValues } from "./arguments";
import { parseArguments } from "./arguments";

// eslint-disable-next-line max-len -- the usage text is printed as written
export const USAGE = `Usage: palee session <start|draft|end|list|status|recover|rebuild|pause|continue|log|stats|export> [options]

  --vault <dir>        vault root (default: $PALEE_VAULT, else the current directory)
  --folder <path>      session folder inside the vault (default: the plugin's setting, else "palee")
  --topic <id>         explicit topic (start, draft, end, pause, continue, log)
  --summary <text>     end, log: the summary
  --next <text>        end, log: the next action
  --at <now|last|HH:MM|ISO>  end: when the session ended (needed after a long silence)
  --from <time> --to <time> | --minutes <n> [--to <time>]   log: when the past session happened
  --note <text>        draft: notes to append
  -i, --interactive    start, recover: resolve drafts with [R]esume [S]ave [D]iscard [I]gnore prompts
  --if-open <refuse|keep>  start: what to do when a session is already open (default refuse)
  --ignore-pending     start: start even though other drafts are pending, leaving them as they are
  --draft <id> --action <resume|save|discard|ignore>   recover one draft
  --all                list: every confirmed session
  --since <YYYY-MM-DD> --until <YYYY-MM-DD>   stats, export: local days, inclusive
  --format <csv|json>  export (default csv);  --out <file>: a new file (never overwritten)
  --json               one JSON document on stdout
  -h, --help           this help

Exit codes: 0 success, 2 usage (also: topic required, drafts pending, already open, no such draft),
4 conflict (a file changed underneath a write), 5 unexpected error.`;

const ACTIONS = [
  "start",
  "draft",
  "end",
  "list",
  "status",
  "recover",
  "rebuild",
  "pause",
  "continue",
  "log",
  "stats",
  "export",
] as const;
export type Action = (typeof ACTIONS)[number];

/** Which options each action accepts; anything else is refused rather than silently ignored. */
const ALLOWED: Record<Action, readonly string[]> = {
  start: ["topic", "interactive", "if-open", "ignore-pending"],
  draft: ["topic", "note"],
  end: ["topic", "summary", "next", "at"],
  list: ["all"],
  status: [],
  recover: ["draft", "action", "interactive"],
  rebuild: [],
  pause: ["topic"],
  continue: ["topic"],
  log: ["topic", "from", "to", "minutes", "summary", "next"],
  stats: ["since", "until"],
  export: ["since", "until", "format", "out"],
};
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
  "ignore-pending": { type: "boolean" },
  draft: { type: "string" },
  action: { type: "string" },
  all: { type: "boolean" },
  since: { type: "string" },
  until: { type: "string" },
  format: { type: "string" },
  out: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies Record<string, OptionSpec>;

export type Values = OptionValues<typeof OPTIONS>;

export function parse(argv: readonly string[]): { action: Action | null; values: Values; help: boolean } {
  const { values, positionals } = parseArguments(argv, OPTIONS);
  if (values.help && positionals.length <= 2) return { action: null, values, help: true };
  if (positionals[0] !== "session") {
    throw new UsageError(
      positionals.length === 0
        ? "missing command: palee session <action>"
        : `unknown command "${positionals[0]}" (try: palee session --help)`,
    );
  }
  const action = positionals[1];
  if (action === undefined) {
    throw new UsageError(`missing action: palee session <${ACTIONS.join("|")}>`);
  }
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(`unknown action "${action}" (expected one of ${ACTIONS.join(", ")})`);
  }
  if (positionals.length > 2) throw new UsageError(`unexpected argument "${positionals[2]}"`);
  const typed = action as Action;
  for (const key of Object.keys(values)) {
    if (!COMMON.includes(key) && !ALLOWED[typed].includes(key)) {
      throw new UsageError(`--${key} does not apply to "session ${typed}"`);
    }
  }
  return { action: typed, values, help: false };
}
