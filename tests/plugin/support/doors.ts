/**
 * The doors of the running app in the plugin harness: an `obsidian://palee-sessions?…` link as Obsidian hands it
 * to the plugin (its query decoded into text values), and a call of the app's command line. obsidian-test-mocks
 * keeps what the plugin registered (obsidianProtocolHandlers__, cliHandlers__); this reads them back.
 */
import type { CliData, CliHandler, ObsidianProtocolData, ObsidianProtocolHandler } from "obsidian";
import type { LoadedPlugin } from "./plugin-harness";
import { settle } from "./plugin-harness";

type DoorsMock = {
  obsidianProtocolHandlers__: Map<string, ObsidianProtocolHandler>;
  cliHandlers__: Map<string, CliHandler>;
};

const doorsOf = (p: LoadedPlugin): DoorsMock => p.plugin as unknown as DoorsMock;

/** Follows `obsidian://<action>?<query>` as the app would: the handler gets `action` and every query value. */
export async function followLink(p: LoadedPlugin, link: string): Promise<void> {
  const url = new URL(link);
  const action = url.hostname || url.pathname.replace(/^\/+/, "");
  const handler = doorsOf(p).obsidianProtocolHandlers__.get(action);
  if (!handler) throw new Error(`no handler for obsidian://${action}`);
  const params: ObsidianProtocolData = { action };
  for (const [key, value] of url.searchParams) params[key] = value;
  await handler(params);
  await settle();
}

export function cliCommands(p: LoadedPlugin): string[] {
  return [...doorsOf(p).cliHandlers__.keys()].sort();
}

export function protocolActions(p: LoadedPlugin): string[] {
  return [...doorsOf(p).obsidianProtocolHandlers__.keys()];
}

/** Runs `obsidian <command> key=value…` through the plugin's handler; its text answer. */
export async function runCli(p: LoadedPlugin, command: string, params: CliData = {}): Promise<string> {
  const handler = doorsOf(p).cliHandlers__.get(command);
  if (!handler) throw new Error(`no CLI handler ${command}`);
  const answer = await handler(params);
  await settle();
  return answer;
}
