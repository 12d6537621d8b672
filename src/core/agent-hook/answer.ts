/**
 * What `palee session hook` does with one event (contract §4b hook), over the same operations as the CLI's
 * `start --if-open keep --agent`, `draft` and `end --agent --at last`: no session rule of its own. It never
 * ends, checkpoints or absorbs a session its agent did not open, and never creates one but at SessionStart.
 */
import { isPaleeError } from "../errors";
import { isOpen } from "../records/hot-memory";
import type { StartResult } from "../sessions";
import type { PaleeSessions } from "../sessions";
import type { HookEvent } from "./event";

export interface HookOptions {
  /** The topic ID SessionStart starts on (install's --topic); null: the active topic. */
  topic: string | null;
  /** The brief's word budget. */
  words: number;
  /**
   * How a `palee session` action is run from where the tutor works, as written in the brief (default
   * `palee session <action>`; the CLI gives its absolute form, as the installed hook runs it, and --vault).
   */
  command?: (action: string) => string;
  /** The link to the topic note SessionStart starts on, when the face found one (contract §5 version 4). */
  topicNote?: string | null;
}

/** What the event did, for tests and the model; `output` is the document to print on stdout, if any. */
export type HookAnswer =
  | { did: "started" | "kept" | "pending"; output: SessionStartOutput; warnings: string[] }
  | { did: "checkpointed" | "ended"; output: null; warnings: string[] }
  | { did: "discarded_empty"; output: null; warnings: string[]; discarded: string }
  | { did: "ignored"; output: null; warnings: string[]; why: string };

/** The document Claude Code reads from a SessionStart hook's stdout: the brief goes into the conversation. */
export interface SessionStartOutput {
  hookSpecificOutput: { hookEventName: "SessionStart"; additionalContext: string };
}

export async function answerHook(core: PaleeSessions, event: HookEvent, options: HookOptions): Promise<HookAnswer> {
  switch (event.kind) {
    case "start":
      return startAnswer(core, event.agent, options);
    case "sign":
      return signOfLife(core, event.agent);
    case "end":
      return endAnswer(core, event.agent, event.outcome);
  }
}

/** SessionStart: start or keep (never replace) a session, then the brief for the tutor, with one line on top. */
async function startAnswer(core: PaleeSessions, agent: string, options: HookOptions): Promise<HookAnswer> {
  const result = await core.start({ topic: options.topic, ifOpen: "keep", agent, topicNote: options.topicNote });
  // The brief is of the session that records this conversation, else of the topic asked for (or the active one).
  const own = result.status === "started" ? result.topicId : ownOpenTopic(result, agent);
  const topic = own ?? options.topic;
  const brief = await core.brief({ topic, words: options.words });
  const command = options.command ?? ((action: string) => `palee session ${action}`);
  const additionalContext = `${statusLine(result, agent, command)}\n\n${brief.text.trim()}\n`;
  const output: SessionStartOutput = { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext } };
  const did = result.status === "started" ? "started" : result.status === "drafts_pending" ? "pending" : "kept";
  return { did, output, warnings: result.status === "started" ? result.warnings : [] };
}

function ownOpenTopic(result: StartResult, agent: string): string | null {
  return (result.status === "kept" || result.status === "already_open") && result.open.agent === agent
    ? result.open.topicId
    : null;
}

/** The line that tells the tutor which session records this conversation, and how it may end it itself. */
function statusLine(result: StartResult, agent: string, command: (action: string) => string): string {
  const endIt =
    `To end it yourself with what was covered: ${command("end")} --agent ${agent} ` +
    `--summary "<what was covered>" --next "<the next step>" --if-none ignore`;
  switch (result.status) {
    case "started":
      return (
        `PALEE: a study session on ${result.topicId} started for this conversation (agent ${agent}); ` +
        `it is saved when the conversation ends. ${endIt}`
      );
    case "drafts_pending":
      return (
        `PALEE: no study session was started: ${result.drafts.length} unfinished session draft(s) wait for ` +
        `the learner to resolve them (${command("start -i")}).`
      );
    case "kept":
    case "already_open": {
      const o = result.open;
      if (o.agent === agent) return `PALEE: this conversation's study session on ${o.topicId} is open. ${endIt}`;
      const by = o.agent === null ? "the learner's own session" : `a session opened by ${o.agent}`;
      return (
        `PALEE: ${by} on ${o.topicId} is open (since ${o.startedAt}); this conversation leaves it as it is ` +
        "and records no session of its own."
      );
    }
  }
}

/** UserPromptSubmit, Stop, PreCompact: a checkpoint of this agent's open session; anything else is left alone. */
async function signOfLife(core: PaleeSessions, agent: string): Promise<HookAnswer> {
  // hot.md and one draft only: no scan of the history unless this agent's session is open.
  const hot = (await core.readHot()).state;
  if (!isOpen(hot)) return ignored("no session is open");
  const draft = await core.readDraftNow(hot.openDraft);
  if (draft === null || (draft.agent ?? null) !== agent) return ignored("the open session is not this agent's");
  try {
    const result = await core.checkpoint({ open: { draftId: draft.draftId, topicId: draft.topicId } });
    return { did: "checkpointed", output: null, warnings: result.warnings };
  } catch (error) {
    // Saved meanwhile (an end cut short after its note: the checkpoint's reconcile closed it): nothing to do.
    if (isPaleeError(error) && error.kind === "nothing_open") return ignored(error.message);
    throw error;
  }
}

/** SessionEnd: end this agent's session at its last sign of life; none open, or not its own: nothing. */
async function endAnswer(
  core: PaleeSessions,
  agent: string,
  outcome: "completed" | "interrupted",
): Promise<HookAnswer> {
  try {
    const result = await core.endOrDiscard({ agent, endAt: { kind: "last" }, outcome });
    if (result.discardedEmpty !== undefined) {
      return { did: "discarded_empty", output: null, warnings: result.warnings, discarded: result.discardedEmpty };
    }
    return { did: "ended", output: null, warnings: result.warnings };
  } catch (error) {
    if (isPaleeError(error) && (error.kind === "nothing_open" || error.kind === "not_this_agent")) {
      return ignored(error.message);
    }
    throw error;
  }
}

function ignored(why: string): HookAnswer {
  return { did: "ignored", output: null, warnings: [], why };
}
