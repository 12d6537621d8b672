/**
 * `palee session hook --install claude-code` / `--uninstall` (contract §4b): which hooks of a Claude Code
 * settings file are this tool's. The CLI edits the file's text (src/cli/hook/settings-text.ts), so every byte
 * that is not one of these hooks stays as it was.
 *
 * The settings shape: `{"hooks": {"<Event>": [{"matcher"?: "…", "hooks": [{"type": "command",
 * "command": "…", "timeout"?: seconds}]}]}}`. A hook is this tool's only when its command carries OWN_MARK (a
 * shell comment at its end, which install writes), or is exactly what this installation of palee wrote before
 * the mark existed: never a hook whose command merely mentions `palee … session hook` (issue 35 §2).
 */

/** Seconds the host waits for the hook: the vault lock's wait (10 s) and a start on a large vault fit in it. */
export const HOOK_TIMEOUT_SECONDS = 30;

/** The end of every command install writes: a shell comment, so the host runs the command unchanged. */
export const OWN_MARK = "# palee-sessions:hook";

type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Whether `hook` is this tool's: its command ends with OWN_MARK, or (an install made before the mark) starts
 * with `legacy`, this installation's own `<node> <cli.js> session hook ` prefix.
 */
export function isOwnHook(hook: unknown, legacy: string | null = null): boolean {
  if (!isObject(hook) || typeof hook.command !== "string") return false;
  const command = hook.command.trim();
  return command.endsWith(` ${OWN_MARK}`) || (legacy !== null && command.startsWith(legacy));
}

/** The hook entry install writes for `command` (already ending with OWN_MARK). */
export function ownHook(command: string): Json {
  return { type: "command", command, timeout: HOOK_TIMEOUT_SECONDS };
}
