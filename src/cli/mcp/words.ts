/**
 * Messages in `palee mcp` answers name the tool's arguments, not the CLI's flags (contract §5 version 4): the
 * operations word their refusals and warnings for the command line ("--at now", "palee session log --topic …"),
 * and a tool's answer rewrites them into the tool's own words ("at=now", "the log_session tool").
 */

/** A flag and its argument differ in more than case: `--next` is `next_action`. */
const ARGUMENT_OF_FLAG: Readonly<Record<string, string>> = { next: "next_action" };

/** A value that follows a flag in a message: quoted, a placeholder, a time, a topic ID or a keyword. */
const VALUE = String.raw`"[^"]*"|<[^>]*>|T-[\w.-]+|[\w.:+-]*\d[\w.:+-]*|HH:MM|now|last|ignore|refuse|keep`;
const FLAG = new RegExp(String.raw`(?<![\w-])--([a-z][a-z-]*)(?: (${VALUE})(?![\w-]))?`, "g");
const COMMAND = /"\bpalee session ([a-z]+)\b([^"\n]*)"|\bpalee session ([a-z]+)\b/g;

export function argumentOf(flag: string): string {
  return ARGUMENT_OF_FLAG[flag] ?? flag.replace(/-/g, "_");
}

/** `text` in a tool's words: each `palee session <action>` the tool that runs it, each `--flag v` `flag=v`. */
export function inToolWords(text: string, toolOfAction: (action: string) => string | undefined): string {
  return text
    .replace(COMMAND, (whole: string, quoted?: string, rest?: string, bare?: string) => {
      const tool = toolOfAction(quoted ?? bare ?? "");
      return tool === undefined ? whole : `the ${tool} tool with${rest ?? ""}`;
    })
    .replace(FLAG, (_whole: string, flag: string, value: string | undefined) =>
      value === undefined ? `\`${argumentOf(flag)}\`` : `${argumentOf(flag)}=${value}`,
    )
    .replace(/( tool) with(?! \w+=)/g, "$1");
}
