/**
 * One hook event of an agent host (contract §4b hook), as Claude Code writes it on a hook's standard input:
 * a JSON object with `hook_event_name`, `session_id`, `cwd`, and per event `source` (SessionStart) or
 * `reason` (SessionEnd). Pure: the CLI reads the text, this decides what it is, or refuses it in one line.
 */
import { UsageError } from "../errors";
import { AGENT_ID_MAX, validateAgentId } from "../records/ids";

/** The agent host whose events the hook reads; the agent ID of its conversations is `claude-code:<id>`. */
export const HOOK_HOST = "claude-code";

/** The events the hook maps (contract §4b); `install` adds exactly these to a settings file. */
export const HOOK_EVENTS = ["SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/**
 * SessionEnd reasons that are a normal end of the conversation, chosen by the learner: `/exit` or end of
 * input at the prompt, logging out, `/clear` (a new conversation follows) and `/resume` of another one. Any
 * other reason (`other`: the terminal closed, the process was stopped; `bypass_permissions_disabled`; one this
 * version does not know) ends the session as `interrupted`.
 */
export const NORMAL_END_REASONS: ReadonlySet<string> = new Set(["prompt_input_exit", "logout", "clear", "resume"]);

export type HookEvent =
  | { kind: "start"; name: "SessionStart"; agent: string; source: string | null }
  | { kind: "sign"; name: "UserPromptSubmit" | "Stop" | "PreCompact"; agent: string }
  | { kind: "end"; name: "SessionEnd"; agent: string; reason: string | null; outcome: "completed" | "interrupted" };

/** A value from the input, shown in a message: one line, at most 40 characters. */
function shown(value: string): string {
  const line = value.replace(/\p{Cc}/gu, "?");
  return JSON.stringify(line.length > 40 ? `${line.slice(0, 40)}…` : line);
}

const isHookEventName = (name: string): name is HookEventName => (HOOK_EVENTS as readonly string[]).includes(name);

/** FNV-1a, 32 bits from `basis`, as 8 hex digits. */
function fnv1a(text: string, basis: number): string {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** A 64-bit tag of an ID too long to spell out: two FNV-1a passes from different bases. */
const tag64 = (text: string): string => `${fnv1a(text, 0x811c9dc5)}${fnv1a(text, 0x050c5d1f)}`;

const PLAIN_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$/;

/**
 * The agent ID of a host's conversation: `claude-code:<session_id>`. A session ID with other characters is
 * spelled out: each such UTF-16 unit becomes `@` and its 4 hex digits (`a b` → `a@0020b`). `@` never occurs in
 * a plain ID, so the spelling is one-to-one and two conversations never share an agent ID (issue 35 §2). Only
 * an ID whose spelling would not fit in an agent ID is shortened, to its start, `/` (which neither form uses)
 * and a 64-bit tag of the whole ID. The result is always a valid agent ID (ids.ts).
 */
export function agentIdFor(sessionId: string): string {
  if (PLAIN_SESSION_ID.test(sessionId)) return `${HOOK_HOST}:${sessionId}`;
  let spelled = "";
  for (let i = 0; i < sessionId.length; i++) {
    const ch = sessionId[i];
    spelled += /[A-Za-z0-9._-]/.test(ch) ? ch : `@${sessionId.charCodeAt(i).toString(16).padStart(4, "0")}`;
  }
  const whole = `${HOOK_HOST}:${spelled}`;
  if (whole.length <= AGENT_ID_MAX) return validateAgentId(whole);
  const start = sessionId.replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 100);
  return validateAgentId(`${HOOK_HOST}:${start}/${tag64(sessionId)}`);
}

function objectOf(input: string): Record<string, unknown> {
  // A UTF-8 byte-order mark some hosts and editors put first is not part of the JSON (issue 35 §4).
  const text = input.startsWith("\uFEFF") ? input.slice(1) : input;
  if (text.trim() === "") {
    throw new UsageError(
      "standard input is empty: palee session hook reads one hook event as JSON (Claude Code writes it)",
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`the hook event on standard input is not JSON (it begins ${shown(text.trimStart())})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError("the hook event on standard input is not a JSON object");
  }
  return parsed as Record<string, unknown>;
}

const stringField = (o: Record<string, unknown>, key: string): string | null =>
  typeof o[key] === "string" ? o[key] : null;

/** The event in `text`, or one clear refusal (UsageError; the hook exits 1 with it, never 2). */
export function parseHookEvent(text: string): HookEvent {
  const o = objectOf(text);
  const name = stringField(o, "hook_event_name");
  if (name === null) throw new UsageError("the hook event has no hook_event_name: nothing was done");
  if (!isHookEventName(name)) {
    throw new UsageError(
      `unknown hook event ${shown(name)}: palee session hook handles ${HOOK_EVENTS.join(", ")}; nothing was done`,
    );
  }
  const sessionId = stringField(o, "session_id");
  if (sessionId === null || sessionId.trim() === "") {
    throw new UsageError(`the ${name} event has no session_id: nothing was done`);
  }
  const agent = agentIdFor(sessionId);
  switch (name) {
    case "SessionStart":
      return { kind: "start", name, agent, source: stringField(o, "source") };
    case "SessionEnd": {
      const reason = stringField(o, "reason");
      const outcome = reason !== null && NORMAL_END_REASONS.has(reason) ? "completed" : "interrupted";
      return { kind: "end", name, agent, reason, outcome };
    }
    default:
      return { kind: "sign", name, agent };
  }
}
