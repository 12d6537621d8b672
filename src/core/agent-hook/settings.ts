/**
 * `palee session hook --install claude-code` / `--uninstall` (contract §4b): the hooks of a Claude Code
 * settings file, merged as data. Pure: the CLI reads and writes the file (src/cli/hook/settings-file.ts).
 *
 * The settings shape: `{"hooks": {"<Event>": [{"matcher"?: "…", "hooks": [{"type": "command",
 * "command": "…", "timeout"?: seconds}]}]}}`. Everything else in the file, and every hook that is not this
 * tool's, is kept as it was. A hook is this tool's when its command runs `palee … session hook` (or the CLI's
 * `cli.js`), whatever paths and options it was installed with.
 */
import { UsageError } from "../errors";
import { HOOK_EVENTS } from "./event";

/** Seconds the host waits for the hook: the vault lock's wait (10 s) and a start on a large vault fit in it. */
export const HOOK_TIMEOUT_SECONDS = 30;

const OWN_COMMAND = /(?:^|[\s'"/\\])(?:palee|cli\.js)['"]?\s+session\s+hook(?:\s|$)/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function isOwnHook(hook: unknown): boolean {
  return isObject(hook) && typeof hook.command === "string" && OWN_COMMAND.test(hook.command);
}

export interface SettingsChange {
  settings: Json;
  /** Whether anything differs from the settings given (false: the file need not be written). */
  changed: boolean;
  /** The events this tool's hooks were removed from. */
  removedFrom: string[];
}

/** The settings' hooks object, refused in one line when it is not the shape Claude Code reads. */
function hooksOf(settings: unknown, file: string): Json | undefined {
  if (!isObject(settings)) throw new UsageError(`${file} is not a JSON object: left it as it is`);
  if (settings.hooks === undefined) return undefined;
  if (!isObject(settings.hooks)) throw new UsageError(`${file}: "hooks" is not an object: left it as it is`);
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) throw new UsageError(`${file}: hooks.${event} is not a list: left it as it is`);
  }
  return settings.hooks;
}

/** One event's groups without this tool's hooks; a group (or the event) emptied by that is dropped. */
function withoutOwn(groups: unknown[]): { groups: unknown[]; removed: boolean } {
  let removed = false;
  const kept: unknown[] = [];
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks) || !group.hooks.some(isOwnHook)) {
      kept.push(group);
      continue;
    }
    removed = true;
    const others = group.hooks.filter((h) => !isOwnHook(h));
    if (others.length > 0) kept.push({ ...group, hooks: others });
  }
  return { groups: kept, removed };
}

/** The settings without any of this tool's hooks (what --uninstall writes). */
export function uninstallHooks(settings: unknown, file: string): SettingsChange {
  const hooks = hooksOf(settings, file);
  const base = settings as Json;
  if (hooks === undefined) return { settings: base, changed: false, removedFrom: [] };
  const next: Json = {};
  const removedFrom: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    const stripped = withoutOwn(groups as unknown[]);
    if (stripped.removed) removedFrom.push(event);
    if (stripped.groups.length > 0 || !stripped.removed) next[event] = stripped.groups;
  }
  if (removedFrom.length === 0) return { settings: base, changed: false, removedFrom };
  const result =
    Object.keys(next).length > 0
      ? { ...base, hooks: next }
      : Object.fromEntries(Object.entries(base).filter(([key]) => key !== "hooks"));
  return { settings: result, changed: true, removedFrom };
}

/** The settings with this tool's hooks for every event it maps, running `command` (what --install writes). */
export function installHooks(settings: unknown, file: string, command: string): SettingsChange {
  const stripped = uninstallHooks(settings, file);
  const hooks: Json = { ...((stripped.settings.hooks as Json | undefined) ?? {}) };
  for (const event of HOOK_EVENTS) {
    const own = { hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }] };
    hooks[event] = [...((hooks[event] as unknown[] | undefined) ?? []), own];
  }
  const result = { ...stripped.settings, hooks };
  return { settings: result, changed: JSON.stringify(result) !== JSON.stringify(settings), removedFrom: [] };
}
