/**
 * `palee session hook` runs inside an agent host, where exit code 2 means "block": Claude Code then refuses
 * the prompt or keeps the conversation from stopping. So the hook reports every refusal (a usage error too,
 * even one found while parsing its arguments) with exit 1, a non-blocking error (contract §4b).
 */
export const HOOK_PROBLEM_EXIT = 1;

/** Whether argv runs the hook: `session hook`, with the options anywhere around the two words. */
export function isHookCall(argv: readonly string[]): boolean {
  const at = argv.indexOf("session");
  return at !== -1 && argv[at + 1] === "hook";
}

/** The exit code to return for a failure of this invocation: 2 becomes 1 for the hook, the others stay. */
export function hostExitCode(argv: readonly string[], exitCode: number): number {
  return exitCode === 2 && isHookCall(argv) ? HOOK_PROBLEM_EXIT : exitCode;
}
