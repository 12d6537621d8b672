/**
 * `palee session hook --install claude-code [--settings <file>]` and `--uninstall claude-code`: this tool's
 * hooks in a Claude Code settings file (default `.claude/settings.json` under the current folder), every other
 * key and hook kept (src/core/agent-hook/settings.ts). The command it installs names node and this CLI by
 * absolute path and the vault (and --folder, --topic, --words when given), so the host runs it from any folder
 * and whatever its PATH holds; install again after moving either.
 */
import * as path from "node:path";
import { UsageError } from "../../core/errors";
import { HOOK_EVENTS, HOOK_HOST } from "../../core/agent-hook/event";
import { ConflictError } from "../../core/errors";
import { OWN_MARK } from "../../core/agent-hook/settings";
import type { CommandContext } from "../commands/command";
import { parseWords } from "../commands/context";
import type { Values } from "../options";
import type { Outcome } from "../output";
import { topicOption } from "../topic";
import { SettingsChanged, readSettings, writeSettings } from "./settings-file";
import type { TextChange } from "./settings-text";
import { installText, uninstallText } from "./settings-text";

/** A word as POSIX shells read it: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The path of this CLI's script (dist/cli.js), as the host will run it. */
export function cliScript(): string {
  return path.resolve(require.main?.filename ?? process.argv[1] ?? "palee");
}

async function hookCommand(ctx: CommandContext, values: Values): Promise<string> {
  const words = ["session", "hook", "--vault", ctx.store.root];
  if (values.folder !== undefined) words.push("--folder", values.folder);
  const topic = await topicOption(ctx, values.topic, "begins");
  if (topic !== null) words.push("--topic", topic);
  if (values.words !== undefined) words.push("--words", String(parseWords(values.words)));
  return `${[process.execPath, cliScript(), ...words].map(shellWord).join(" ")} ${OWN_MARK}`;
}

/** What this installation of palee wrote before OWN_MARK existed: its own node and cli.js, `session hook`. */
function legacyPrefix(): string {
  return `${[process.execPath, cliScript()].map(shellWord).join(" ")} session hook `;
}

/** How many times the file is read again when it changed underneath before the install gives up. */
const ATTEMPTS = 3;

/** Reads, changes and writes the settings file; read again when it changed meanwhile, refused after ATTEMPTS. */
export async function editSettings(file: string, change: (text: string) => TextChange): Promise<TextChange> {
  for (let attempt = 1; ; attempt++) {
    const read = await readSettings(file);
    // A file that does not exist yet is an empty object (install creates it).
    const result = change(read.exists ? read.raw : "{}\n");
    if (!result.changed) return result;
    try {
      await writeSettings(read, result.text);
      return result;
    } catch (error) {
      if (!(error instanceof SettingsChanged)) throw error;
      if (attempt >= ATTEMPTS) {
        throw new ConflictError(file, `${file} kept changing while palee edited it: nothing was changed; try again`);
      }
    }
  }
}

function hostOf(values: Values): { host: string; install: boolean } {
  if (values.install !== undefined && values.uninstall !== undefined) {
    throw new UsageError("--install and --uninstall cannot be given together");
  }
  const host = values.install ?? values.uninstall ?? "";
  if (host !== HOOK_HOST) {
    throw new UsageError(
      `unknown agent host ${JSON.stringify(host.slice(0, 40))}: palee session hook knows ${HOOK_HOST}`,
    );
  }
  return { host, install: values.install !== undefined };
}

export async function runInstall(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { install } = hostOf(values);
  const file = path.resolve(ctx.io.cwd, values.settings ?? path.join(".claude", "settings.json"));
  const command = install ? await hookCommand(ctx, values) : null;
  const legacy = legacyPrefix();
  const change = await editSettings(file, (text) =>
    command !== null ? installText(text, file, command, legacy) : uninstallText(text, file, legacy),
  );
  const status = !change.changed ? "unchanged" : install ? "installed" : "uninstalled";
  if (ctx.out.json)
    ctx.out.doc({ status, settings: file, events: install ? HOOK_EVENTS : change.removedFrom, command });
  if (!change.changed) {
    ctx.out.text(
      install
        ? `palee's hooks are already in ${file}; nothing was changed.`
        : `${file} holds no palee hooks; nothing was changed.`,
    );
  } else if (install) {
    ctx.out.text(`Installed palee's hooks for ${HOOK_EVENTS.join(", ")} in ${file}:\n  ${command}`);
  } else {
    ctx.out.text(`Removed palee's hooks (${change.removedFrom.join(", ")}) from ${file}; every other hook is kept.`);
  }
  return 0;
}
