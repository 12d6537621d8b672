/** The help texts: the general usage (`palee --help`, bare `palee`) and each action's own (`… end --help`). */
import type { Command, OptionName } from "./commands/command";
import { COMMANDS } from "./commands/index";

const ACTIONS = COMMANDS.map((c) => c.name).join("|");

export const USAGE = `Usage: palee session <${ACTIONS}> [options]
       palee mcp [--vault <dir>] [--folder <path>]   an MCP server for AI assistants (palee mcp --help)

  --vault <dir>        vault root (default: $PALEE_VAULT, else the current directory)
  --folder <path>      session folder inside the vault (default: the plugin's setting, else "palee")
  --topic <id>         explicit topic (start, draft, end, pause, continue, log, context, latest, list, hook)
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
  --all                list: every confirmed session
  --since <YYYY-MM-DD> --until <YYYY-MM-DD>   stats, export: local days, inclusive
  --format <csv|json>  export (default csv);  --out <file>: a new file (never overwritten)
  --words <n>          context, hook: the brief's length in words, 50 to 5000 (default 400)
  --id <session id>    show: the session (S-…) or draft (DRAFT-S-…) to print
  --install claude-code | --uninstall claude-code [--settings <file>]   hook: add (remove) its hooks in a
                       Claude Code settings file (default .claude/settings.json); hook alone reads one event
  --json               one JSON document on stdout
  -h, --help           this help (after an action: that action's own help too)
  --version            the version of palee

Exit codes: 0 success, 2 usage (also: topic required, drafts pending, already open, no such draft or session),
4 conflict (a file changed underneath a write) or busy (another palee process kept writing to this vault for
10 s), 5 unexpected error. hook never exits 2 (it would block the agent host): its refusals exit 1.

Writing actions hold a lock of the vault, kept outside it in $PALEE_CACHE_DIR (default: the platform's cache
folder, e.g. ~/.cache/palee); list, status, stats, context, show and latest take none.`;

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
