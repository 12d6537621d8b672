import { UsageError } from "../../core/errors";
import { awayJson, awayLine } from "../../core/honest-time";
import type { RecoverAction, RecoverResult } from "../../core/sessions";
import { askAboutDraft } from "../ask-action";
import { describePending, recoveryJson, recoveryLine } from "../describe";
import type { Values } from "../options";
import type { Outcome } from "../output";
import { LineReader } from "../prompt";
import type { Command, CommandContext } from "./command";

function recoverAction(value: string | undefined): RecoverAction {
  if (value === "resume" || value === "save" || value === "discard" || value === "ignore") return value;
  const got = value === undefined ? "" : ` (got "${value}")`;
  throw new UsageError(`--action must be resume, save, discard or ignore${got}`);
}

/**
 * A resumed session's time away (contract §4 recover): the same "Away … not counted" line as `draft`, on
 * stderr (news, not data), and `away` in its JSON.
 */
export function reportAway(ctx: CommandContext, r: RecoverResult): void {
  if (r.status === "resumed" && r.away) ctx.io.stderr(`${awayLine(r.away, ctx.offsetAt)}\n`);
}

export function resultJson(ctx: CommandContext, r: RecoverResult) {
  const doc = recoveryJson(r);
  return r.status === "resumed" && r.away ? { ...doc, away: awayJson(r.away, ctx.offsetAt) } : doc;
}

async function recoverEach(ctx: CommandContext): Promise<Outcome> {
  const { core, out, io } = ctx;
  const drafts = (await core.list()).drafts;
  if (drafts.length === 0) {
    if (out.json) out.doc({ status: "none", drafts: [] });
    out.text("No drafts to recover.");
    return 0;
  }
  const reader = new LineReader(io.stdin);
  const results: RecoverResult[] = [];
  try {
    for (const draft of drafts) {
      const action = await askAboutDraft(ctx, reader, draft.draftId, describePending(draft));
      const done = await core.recover(draft.draftId, action);
      for (const w of done.warnings) out.warn(w);
      reportAway(ctx, done);
      results.push(done);
    }
  } finally {
    reader.close();
  }
  if (out.json) out.doc({ status: "recovered", results: results.map((r) => resultJson(ctx, r)) });
  for (const r of results) out.text(recoveryLine(r));
  return 0;
}

async function runRecover(ctx: CommandContext, values: Values): Promise<Outcome> {
  if (values.interactive && values.draft === undefined) return recoverEach(ctx);
  if (values.draft === undefined) {
    throw new UsageError("recover needs --draft <id> --action <resume|save|discard|ignore>, or -i");
  }
  const result = await ctx.core.recover(values.draft, recoverAction(values.action));
  for (const w of result.warnings) ctx.out.warn(w);
  reportAway(ctx, result);
  if (ctx.out.json) ctx.out.doc(resultJson(ctx, result));
  ctx.out.text(recoveryLine(result));
  return 0;
}

export const recover: Command = {
  name: "recover",
  summary: "Resolves a draft left by a crash or another device: resume, save, discard or ignore it.",
  options: {
    draft: "the draft to resolve (its ID, as list prints it)",
    action: "resume, save, discard or ignore",
    interactive: "ask about every draft in turn",
  },
  example: "palee session recover --draft DRAFT-S-1a2b3c4d --action save",
  run: runRecover,
};
