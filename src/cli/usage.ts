/** The help texts: the general usage (`palee --help`, bare `palee`) and each action's own (`… end --help`). */
import type { Command, OptionName } from "./commands/command";
import { COMMANDS } from "./commands/index";

const ACTIONS = COMMANDS.map((c) => c.name).join("|");

export const USAGE = `Usage: palee session <${ACTIONS}> [options]
       palee mcp [--vault <dir>] [--folder <path>]   an MCP server for AI assistants (palee mcp --help)

  --vault <dir>        vault root (default: $PALEE_VAULT, else the current directory)
  --folder <path>      session folder inside the vault (default: the plugin's setting, else "palee")
  --topic <id>         explicit topic (start, draft, end, pause, continue, log, context, latest, list, hook, next)
  --summary <text>     end, log: the summary (end: "-" reads it from standard input)
  --next <text>        end, log: the next action (end: "-" reads it from standard input)
  --at <now|last|HH:MM|ISO>  end: when the session ended (needed after a long silence)
  --if-none <refuse|ignore>  end: what to do when no session is open (default refuse; ignore: succeed, write nothing)
  --from <time> --to <time> | --minutes <n> [--to <time>]   log: when the past session happened
  --note <text>        draft: notes to append; end: a last note, merged into the session's Notes
  --agent <id>         start: who opens the session (an agent host); end, draft, pause, continue: act only on
                       a session this agent opened; log: who logs it
  --count-away         draft, end: count the time away recorded in the open session as study after all
  --outcome <completed|interrupted>  end: how the session ended (default completed)
  -i, --interactive    start, recover: resolve drafts with [R]esume [S]ave [D]iscard [I]gnore prompts
  --if-open <refuse|keep>  start: what to do when a session is already open (default refuse)
  --ignore-pending     start: start even though other drafts are pending, leaving them as they are
  --draft <id> --action <resume|save|discard|ignore>   recover one draft
  --all                list: every confirmed session; next: every entry
  --since <YYYY-MM-DD> --until <YYYY-MM-DD>   stats, export: local days, inclusive
  --format <csv|json>  export (default csv);  --out <file>: a new file (never overwritten)
  --words <n>          context, hook: the brief's length in words, 50 to 5000 (default 400)
  --id <session id>    show: the session (S-…) or draft (DRAFT-S-…) to print
  --install claude-code | --uninstall claude-code [--settings <file>]   hook: add (remove) its hooks in a
                       Claude Code settings file (default .claude/settings.json); hook alone reads one event
  --as-of <YYYY-MM-DD> next, goal, year, stats, context: answer as of that day (default today; not after today)
  --minutes-per-week <n> --sessions-per-week <n> [--topic <id>] | --clear   goal: set (or clear) the weekly
                       goal, overall or of a topic, from this week on
  --review <on|off> --topic <id>   goal: keep a topic in (out of) the review queue
  --rest-days <mon,…|none>  --freezes-per-month <n>  --min-minutes <n>   goal: the forgiving rules
  --pause <from>/<to> | --unpause <from>   goal: a holiday or illness (days inclusive, at most 366)
  --recall <text|->    end, log: what you remember, without looking ("-": read it from standard input)
  --rating <1-4|again|hard|good|easy>  end, log: how well you recalled it (1 again … 4 easy)
  --done               end: the carried next action was done in this session
  --limit <n>          next: how many entries (default 10; --all: every one)
  --json               one JSON document on stdout
  -h, --help           this help (after an action: that action's own help too)
  --version            the version of palee

Exit codes: 0 success, 2 usage (also: topic required, drafts pending, already open, no such draft or session),
4 conflict (a file changed underneath a write) or busy (another palee process kept writing to this vault for
10 s), 5 unexpected error. hook never exits 2 (it would block the agent host): its refusals exit 1.

Writing actions hold a lock of the vault, one per vault and user, outside it (/tmp/palee-<uid>/; on Windows
the profile's AppData\\Local\\palee\\locks); list, status, stats, context, show, latest, year and goal without
a setting option take none.`;

/** How each option is written on the command line, with its value. */
const FLAGS: Record<OptionName, string> = {
  topic: "--topic <id>",
  summary: "--summary <text>",
  next: "--next <text>",
  note: "--note <text>",
  at: "--at <now|last|HH:MM|ISO>",
  from: "--from <time>",
  to: "--to <time>",
  minutes: "--minutes <n>",
  interactive: "-i, --interactive",
  "if-open": "--if-open <refuse|keep>",
  "if-none": "--if-none <refuse|ignore>",
  "ignore-pending": "--ignore-pending",
  draft: "--draft <id>",
  action: "--action <resume|save|discard|ignore>",
  all: "--all",
  since: "--since <YYYY-MM-DD>",
  until: "--until <YYYY-MM-DD>",
  format: "--format <csv|json>",
  out: "--out <file>",
  words: "--words <n>",
  id: "--id <session id>",
  agent: "--agent <id>",
  "count-away": "--count-away",
  outcome: "--outcome <completed|interrupted>",
  install: "--install claude-code",
  uninstall: "--uninstall claude-code",
  settings: "--settings <file>",
  "as-of": "--as-of <YYYY-MM-DD>",
  "minutes-per-week": "--minutes-per-week <n>",
  "sessions-per-week": "--sessions-per-week <n>",
  clear: "--clear",
  review: "--review <on|off>",
  "rest-days": "--rest-days <mon,…|none>",
  "freezes-per-month": "--freezes-per-month <n>",
  "min-minutes": "--min-minutes <n>",
  pause: "--pause <from>/<to>",
  unpause: "--unpause <from>",
  recall: "--recall <text|->",
  rating: "--rating <1-4|again|hard|good|easy>",
  done: "--done",
  limit: "--limit <n>",
};

/**
 * `palee session <action> --help`: the general usage (every option, the exit codes), then what this action
 * does, the options it takes and an example, all from its entry in the commands table.
 */
export function commandHelp(command: Command): string {
  const options = (Object.entries(command.options) as [OptionName, string][]).map(([name, text]) => ({
    flag: FLAGS[name],
    text,
  }));
  const width = Math.max(0, ...options.map((o) => o.flag.length)) + 2;
  const lines = [
    USAGE,
    "",
    `palee session ${command.name}: ${command.summary}`,
    "",
    "Options:",
    ...options.map((o) => `  ${o.flag.padEnd(width)}${o.text}`),
    "  and --vault, --folder, --json (above)",
    "",
    "Example:",
    `  ${command.example}`,
  ];
  return lines.join("\n");
}
