import { draftJson } from "../../core/formats/json";
import type { AwayBreak } from "../../core/honest-time";
import { awayLine } from "../../core/honest-time";
import type { Values } from "../options";
import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";
import { OPEN_SESSION_SPAN_MS } from "../../core/device-memory/kept-fields";
import { topicNoteLink, topicOption } from "../topic";
import { isOpen } from "../../core/records/hot-memory";
import { requireOwnSession } from "../agent-guard";
import { countAwayIfAsked } from "../count-away";

/** "Away 23:10–07:05, not counted" after a checkpoint that recorded time away (stderr: it is news, not data). */
function reportAway(away: AwayBreak | null, ctx: CommandContext): void {
  if (away) ctx.io.stderr(`${awayLine(away, ctx.offsetAt)}\n`);
}

async function runDraft(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { core, out } = ctx;
  await requireOwnSession(ctx, values.agent);
  const topic = await topicOption(ctx, values.topic, "begins");
  // Only a new draft records its topic note: a checkpoint of the open session reads no topic notes.
  const opens = !isOpen((await core.readHot()).state);
  const checkpoint = { topic, notes: values.note ?? null, topicNote: opens ? await topicNoteLink(ctx, topic) : null };
  const { created, opened, draft, away, warnings } = await core.checkpoint(checkpoint);
  for (const w of warnings) out.warn(w);
  reportAway(away, ctx);
  await countAwayIfAsked(ctx, values);
  if (out.json) out.doc({ status: "checkpointed", created, draft: draftJson(draft) });
  out.text(
    `${created ? "Created" : "Updated"} ${draft.draftId} for ${draft.topicId} ` +
      `(started ${draft.startedAt ?? "unknown"}, checkpoint ${draft.lastCheckpointAt ?? "now"}).`,
  );
  if (opened) out.text(`No session was open: this draft is now the open session ("palee session end" ends it).`);
  return 0;
}

export const draft: Command = {
  name: "draft",
  summary: "Checkpoints the open session into its draft (or opens one), so a crash loses nothing.",
  options: {
    topic: "the topic, when no session is open yet",
    note: "notes to append to the draft",
    "count-away": "count the time away recorded in the open session as study after all",
    agent: "act only on a session this agent opened; any other is left alone (not_this_agent)",
  },
  example: 'palee session draft --note "lifetimes: elision rules"',
  run: runDraft,
  readsNotesWithin: OPEN_SESSION_SPAN_MS,
};
