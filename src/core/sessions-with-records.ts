/**
 * The session operations plus what only the CLI and `palee mcp` offer: the whole-record reads (contract §4b:
 * show, latest, and the Summary and Next action of each listed session), starts and ends on behalf of an agent
 * (`--agent`, agent-end.ts), and the sweep of stale temp files after a start or an end. They live in this
 * subclass, which the plugin never builds, so main.js does not carry them (as with `recentList`, sessions.ts).
 */
import type { BriefSession } from "./brief";
import { validateAgentId } from "./ids";
import { endAsAgent } from "./operations/agent-end";
import type { CountAllAwayResult } from "./operations/away";
import { countAllAway } from "./operations/away";
import type { ShowResult } from "./operations/brief";
import { latest, sessionDetails, show } from "./operations/brief";
import type { SessionContext } from "./operations/context";
import type { AgentEndOptions, EndAnswer, EndResult } from "./operations/end";
import { end, endOrDiscard } from "./operations/end";
import type { AgentStartOptions, StartResult } from "./operations/start";
import { start } from "./operations/start";
import type { ConfirmedSession } from "./records";
import { PaleeSessions } from "./sessions";

/**
 * After a start or an end that wrote (and scanned the session folder): temp files of the tool's own pattern
 * older than an hour, left by killed writes, go to the trash as rebuild sends them (contract §2), so they do
 * not wait for a rebuild. Only where the face passes the sweep (the CLI). A sweep that fails changes nothing.
 */
async function withTempSweep<T extends { warnings: string[] }>(ctx: SessionContext, result: T): Promise<T> {
  const swept = ctx.tempFiles ? await ctx.tempFiles(ctx.ports, ctx.layout).catch(() => []) : [];
  return swept.length === 0 ? result : { ...result, warnings: [...result.warnings, ...swept] };
}

export class SessionsWithRecords extends PaleeSessions {
  override start(options: AgentStartOptions = {}): Promise<StartResult> {
    return this.exclusive(async (ctx) => {
      if (options.agent != null) validateAgentId(options.agent);
      const result = await start(ctx, options);
      return result.status === "started" ? withTempSweep(ctx, result) : result;
    });
  }

  /** With `agent`, only a session that agent opened is ended (not_this_agent otherwise, nothing written). */
  override end(options: AgentEndOptions = {}): Promise<EndResult> {
    return this.exclusive(async (ctx) => {
      const { agent } = options;
      // Without discarding, every answer is a saved session.
      const result = agent == null ? await end(ctx, options) : ((await endAsAgent(ctx, options, agent)) as EndResult);
      return withTempSweep(ctx, result);
    });
  }

  /** As end; an agent's session that recorded nothing is discarded (contract §5 version 4, agents). */
  override endOrDiscard(options: AgentEndOptions = {}): Promise<EndAnswer> {
    return this.exclusive(async (ctx) => {
      const { agent } = options;
      const result = agent == null ? await endOrDiscard(ctx, options) : await endAsAgent(ctx, options, agent, true);
      return withTempSweep(ctx, result);
    });
  }

  /** `--count-away`: the open session's recorded time away counted as study (contract §5 version 4). */
  countAllAway(): Promise<CountAllAwayResult> {
    return this.exclusive((ctx) => countAllAway(ctx));
  }

  /** One confirmed session or draft, whole; no_such_session for an unknown or malformed ID. */
  show(id: string): Promise<ShowResult> {
    return show(this.context, id);
  }

  /** The newest confirmed session (of the topic), whole; null when there is none. */
  latest(topic?: string | null): Promise<ShowResult | null> {
    return latest(this.context, topic);
  }

  /** The Summary and Next action of each session, read from its note (list --json). */
  sessionDetails(sessions: readonly ConfirmedSession[]): Promise<BriefSession[]> {
    return sessionDetails(this.context, sessions);
  }
}
