/**
 * The running app as a door for agents and shortcuts (contract §5, version 3): `obsidian://palee-sessions`
 * links on every version, and handlers for the app's own command line from Obsidian 1.12.2.
 */
import type { Plugin } from "obsidian";
import { requireApiVersion } from "obsidian";
import type { FlowContext } from "../flows/context";
import { CLI_DOORS, CLI_PREFIX, answer } from "./cli-handlers";
import { PROTOCOL_ACTION, handleLink } from "./protocol";

export function registerDoors(plugin: Plugin, ctx: FlowContext): void {
  plugin.registerObsidianProtocolHandler(PROTOCOL_ACTION, (params) => void handleLink(ctx, params));
  // Only on apps that have it; older ones get no handler at all (the lint rule no-unsupported-api checks this).
  if (requireApiVersion("1.12.2")) {
    for (const door of CLI_DOORS) {
      plugin.registerCliHandler(`${CLI_PREFIX}:${door.command}`, door.description, door.flags, (params) =>
        answer(ctx, door, params),
      );
    }
  }
}
