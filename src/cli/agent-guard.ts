/**
 * `--agent` on the writing actions other than start and end (draft, pause, continue; contract §5 version 4: every
 * writing MCP tool takes `agent` with the CLI's rules). As `end --agent`: an agent acts only on a session it
 * opened; nothing open is `nothing_open`, anyone else's is `not_this_agent`, and nothing is written. It never
 * opens a session either (a checkpoint with nothing open would). The command runs under the vault lock, so
 * what is checked here is what the operation then finds.
 */
import { UsageError } from "../core/errors";
import { isOpen } from "../core/records/hot-memory";
import { validateAgentId } from "../core/records/ids";
import type { CommandContext } from "./commands/command";

export async function requireOwnSession(ctx: CommandContext, agent: string | undefined): Promise<void> {
  if (agent === undefined) return;
  validateAgentId(agent);
  const hot = (await ctx.core.readHot()).state;
  if (!isOpen(hot)) {
    throw new UsageError(`no open session of ${agent}: nothing was written`, "nothing_open");
  }
  const draft = await ctx.core.readDraftNow(hot.openDraft);
  const opener = draft?.agent ?? null;
  if (draft !== null && opener === agent) return;
  const by = draft === null ? "someone else (its draft is missing or unreadable)" : (opener ?? "the learner");
  throw new UsageError(
    `the open session (${hot.openDraft} on ${hot.activeTopic ?? "?"}) was opened by ${by}, not ${agent}: ` +
      "it was left alone and nothing was written",
    "not_this_agent",
  );
}
