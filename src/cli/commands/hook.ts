/**
 * `palee session hook` (contract §4b): one Claude Code hook event on standard input, mapped by the core
 * (src/core/agent-hook/answer.ts). The event is read and checked before the vault is locked, so bad input
 * writes nothing and a silent stdin never holds the lock. Every refusal exits 1, never 2 (src/cli/hook/
 * exit-code.ts): exit 2 would block the host. `--install` / `--uninstall` edit a settings file instead.
 */
import * as path from "node:path";
import { answerHook } from "../../core/agent-hook/answer";
import { UsageError } from "../../core/errors";
import type { HookEvent } from "../../core/agent-hook/event";
import { parseHookEvent } from "../../core/agent-hook/event";
import { cliScript, runInstall, shellWord } from "../hook/install";
import { readHookInput } from "../hook/read-event";
import type { Values } from "../options";
import type { CliIo, Outcome } from "../output";
import { topicNoteLink, topicOption } from "../topic";
import type { Command, CommandContext, Prepared } from "./command";
import { parseWords } from "./context";

async function prepareHook(values: Values, io: CliIo): Promise<Prepared> {
  if (values.install !== undefined || values.uninstall !== undefined) {
    // Only the settings file is written: the vault is not locked.
    return { run: (ctx) => runInstall(ctx, values), writes: false };
  }
  if (values.settings !== undefined) throw new UsageError("--settings goes with --install or --uninstall");
  const words = parseWords(values.words);
  const event = parseHookEvent(await readHookInput(io.stdin));
  return { run: (ctx) => runEvent(ctx, values, event, words) };
}

async function runEvent(ctx: CommandContext, values: Values, event: HookEvent, words: number): Promise<Outcome> {
  // Only SessionStart uses the topic: the signs of life stay as cheap as reading hot.md and one draft.
  const topic = event.kind === "start" ? await topicOption(ctx, values.topic, "begins") : null;
  // Runnable as written (issue 35 §2): `palee` is not on the PATH after `npm install`, so the brief names node
  // and this CLI by absolute path, as the installed hook does; and the vault, unless the tutor works in it.
  const here = path.resolve(ctx.io.cwd) === path.resolve(ctx.store.root);
  const vault = here ? "" : ` --vault ${shellWord(ctx.store.root)}`;
  const palee = [process.execPath, cliScript()].map(shellWord).join(" ");
  const command = (action: string) => `${palee} session ${action}${vault}`;
  const topicNote = event.kind === "start" ? await topicNoteLink(ctx, topic) : null;
  const answer = await answerHook(ctx.core, event, { topic, words, command, topicNote });
  if (answer.did !== "started") ctx.notices.length = 0; // "new topic …" only when a session began on it
  for (const w of answer.warnings) ctx.out.warn(w);
  // stdout is read by the host: the SessionStart document, and nothing for the other events.
  if (answer.output !== null) ctx.out.doc(answer.output);
  return 0;
}

export const hook: Command = {
  name: "hook",
  summary:
    "Reads one Claude Code hook event (JSON on stdin) and starts, checkpoints or ends that conversation's " +
    "own session; SessionStart prints the tutor brief for the host. Never exits 2.",
  options: {
    topic: "SessionStart: the topic to start on (default: the active topic)",
    words: "SessionStart: the brief's length in words (default 400)",
    install: "claude-code: add these hooks to a Claude Code settings file, keeping every other",
    uninstall: "claude-code: remove only these hooks from the settings file",
    settings: "with --install/--uninstall: the settings file (default .claude/settings.json here)",
  },
  example: "palee session hook --install claude-code --topic T-rust-ownership",
  prepare: prepareHook,
  run: async (ctx, values) => (await prepareHook(values, ctx.io)).run(ctx),
};
