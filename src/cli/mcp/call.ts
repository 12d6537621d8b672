/**
 * One tool call of `palee mcp`: the CLI action the tool names, run through `invoke` exactly as
 * `palee session <action> --json` runs it (same lock, same refusals), its JSON document as the result. A
 * refusal is a tool error carrying the CLI's error document, whose `code` is the stable kind (errors.ts).
 */
import { Readable } from "node:stream";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { findCommand } from "../commands/index";
import { errorReport, invoke } from "../invoke";
import type { CliIo } from "../output";
import { Output, terminalIo } from "../output";
import type { VaultChoice } from "../vault";
import type { ToolArgs, ToolSpec } from "./tools";
import { TOOLS } from "./tools";
import { inToolWords } from "./words";

/** Where the server finds its vault, chosen again for each call as one CLI invocation would. */
export interface ServerSetup {
  chooseVault: () => Promise<VaultChoice>;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

interface Captured {
  io: CliIo;
  stdout: () => string;
  stderr: () => string;
}

/** An io that keeps what the action prints; standard input is empty (the protocol owns the real one). */
function capture(setup: ServerSetup): Captured {
  let stdout = "";
  let stderr = "";
  const raw: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdin: Readable.from([]),
    env: setup.env,
    cwd: setup.cwd,
    isTerminal: false,
  };
  return { io: terminalIo(raw), stdout: () => stdout, stderr: () => stderr };
}

function parsed(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const toolOf = (action: string): string | undefined => TOOLS.find((t) => t.action === action)?.name;
const words = (text: string): string => inToolWords(text, toolOf);

/** The answer's own sentences (its message and warnings) in the tool's words; the data is left as it is. */
function inWords(doc: Record<string, unknown>): Record<string, unknown> {
  const message = typeof doc.message === "string" ? { message: words(doc.message) } : {};
  const warnings = Array.isArray(doc.warnings)
    ? { warnings: (doc.warnings as unknown[]).map((w) => (typeof w === "string" ? words(w) : w)) }
    : {};
  return { ...doc, ...message, ...warnings };
}

/** The result: the JSON document as text (and as structured content), then what the action said on stderr. */
function result(answer: Record<string, unknown>, stderr: string, isError: boolean): CallToolResult {
  const doc = inWords(answer);
  const said = words(stderr);
  const content: CallToolResult["content"] = [{ type: "text", text: JSON.stringify(doc) }];
  const lines = said.trim();
  if (lines !== "") content.push({ type: "text", text: lines });
  return { content, structuredContent: doc, ...(isError ? { isError: true } : {}) };
}

export async function callTool(spec: ToolSpec, args: ToolArgs, setup: ServerSetup): Promise<CallToolResult> {
  const command = findCommand(spec.action);
  const captured = capture(setup);
  const out = new Output(captured.io, true);
  try {
    if (command === undefined) throw new Error(`no action ${spec.action}`);
    const values = { ...spec.values(args), json: true };
    const code = await invoke(command, values, await setup.chooseVault(), captured.io, out);
    out.finish();
    const doc = parsed(captured.stdout());
    // A refusal the action reports itself (start: already_open, drafts_pending): its status is the code.
    if (code !== 0) return result({ ...doc, code: doc.status ?? "usage" }, captured.stderr(), true);
    return result(spec.result ? spec.result(doc, args) : doc, captured.stderr(), false);
  } catch (caught) {
    out.finish();
    const { doc, message } = errorReport(caught);
    return result(doc, `${captured.stderr()}palee: ${message}`, true);
  }
}
