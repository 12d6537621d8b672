import { UsageError } from "../../core/errors";
import { LONG_SILENCE_MS } from "../../core/honest-time";
import { draftJson, openJson } from "../../core/formats/json";
import type { OpenSession, StartResult } from "../../core/sessions";
import { askAboutDraft } from "../ask-action";
import { describeDraft, describeOpen, describePending, recoveryLine } from "../describe";
import type { Values } from "../options";
import type { Outcome, Output } from "../output";
import { LineReader } from "../prompt";
import type { Command, CommandContext } from "./command";
import { topicNoteLink, topicOption } from "../topic";
import { reportAway, resultJson } from "./recover";

async function runStart(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { core, out, io, device } = ctx;
  const ifOpen = values["if-open"] ?? "refuse";
  if (ifOpen !== "refuse" && ifOpen !== "keep") {
    throw new UsageError(`--if-open must be refuse or keep (got "${ifOpen}")`);
  }
  const topic = await topicOption(ctx, values.topic, "begins"); // contract §4 "finding a topic by name"
  const topicNote = await topicNoteLink(ctx, topic);
  const ignored = new Set<string>();
  let reader: LineReader | null = null;
  try {
    for (;;) {
      const result: StartResult = await core.start({
        topic,
        ifOpen,
        ignoreDrafts: ignored,
        ignorePending: values["ignore-pending"] === true,
        agent: values.agent ?? null,
        topicNote,
      });
      if (result.status === "kept") ctx.notices.length = 0; // nothing was started on the topic typed
      const interactive = values.interactive === true;
      const asks = result.status === "drafts_pending" || result.status === "already_open";
      if (!interactive || !asks) return reportStart(result, out, device);
      reader ??= new LineReader(io.stdin);
      // The open session itself (e.g. interrupted by a crash) can be resolved here too: Resume keeps it.
      const choices =
        result.status === "drafts_pending"
          ? result.drafts.map((d) => ({ id: d.draftId, description: describePending(d) }))
          : [{ id: result.open.draftId, description: describeOpen(result.open) }];
      for (const choice of choices) {
        const action = await askAboutDraft(ctx, reader, choice.id, choice.description);
        const done = await core.recover(choice.id, action);
        for (const w of done.warnings) out.warn(w);
        if (done.status === "ignored") {
          if (result.status === "already_open") return reportStart(result, out, device);
          ignored.add(choice.id);
          continue;
        }
        if (done.status === "resumed") {
          // The away gap is announced as recover announces it (issue 35 §4), and in the JSON.
          reportAway(ctx, done);
          ctx.notices.length = 0; // "new topic …": nothing was started on the topic typed
          if (out.json) out.doc(resultJson(ctx, done));
          out.text(recoveryLine(done));
          return 0;
        }
        io.stderr(`${recoveryLine(done)}\n`);
      }
    }
  } finally {
    reader?.close();
  }
}

/** What ends another session from this device: only what will work here (contract §4 Devices). */
function howToEnd(o: OpenSession, device: string): string {
  // A paused session ends (and is saved) at its pause, not now (contract §4 pause).
  const where = o.pausedAt === null ? null : `at the pause (${o.pausedAt})`;
  const saveHere =
    `"palee session recover --draft ${o.draftId} --action save" ends it ` + (where ?? "at its last checkpoint");
  if (o.device === null || o.device === device) {
    // After a long silence a bare end refuses (long_silence): the suggestion says when (issue 35 §4).
    const silent = where === null && o.silenceSeconds * 1000 > LONG_SILENCE_MS;
    const end = silent
      ? '"palee session end --at last" ends it at its last activity'
      : `"palee session end" ends it ${where ?? "now"}`;
    return `${end}, ${saveHere}, --if-open keep leaves it`;
  }
  // Another device's session: end refuses it here; Save of that very draft works once its draft has synced.
  const there = `end it on ${o.device}`;
  return o.lastCheckpointAt === null
    ? `${there} (its draft has not synced here), or --if-open keep leaves it`
    : `${there}, or here ${saveHere}; --if-open keep leaves it`;
}

function reportStart(result: StartResult, out: Output, device: string): Outcome {
  switch (result.status) {
    case "started":
      for (const w of result.warnings) out.warn(w);
      if (out.json) {
        out.doc({
          status: "started",
          topic_id: result.topicId,
          started_at: result.startedAt,
          draft_id: result.draftId,
          last_session: result.lastSession,
          working_memory: result.hotBody,
        });
      }
      out.text(`Started a session on ${result.topicId} at ${result.startedAt} (draft ${result.draftId}).`);
      out.text(`Last session: ${result.lastSession ?? "none"}`);
      out.text(`\nWorking memory:\n${result.hotBody}`);
      return 0;
    case "drafts_pending":
      if (out.json) out.doc({ status: "drafts_pending", drafts: result.drafts.map(draftJson) });
      for (const d of result.drafts) out.text(`  ${describeDraft(d)}`);
      out.error(
        `${result.drafts.length} unconfirmed draft(s) must be resolved first: "palee session start -i" or ` +
          `"palee session recover --draft <id> --action <resume|save|discard>"; ` +
          `or start anyway, leaving them as they are: "palee session start --ignore-pending"`,
      );
      return 2;
    case "already_open":
    case "kept": {
      const o = result.open;
      if (out.json) out.doc({ status: result.status, open: openJson(o) });
      if (result.status === "kept") {
        out.text(`Kept the open session on ${o.topicId} (device ${o.device ?? "unknown"}, started ${o.startedAt}).`);
        return 0;
      }
      out.error(
        `a session is already open: ${o.topicId} on ${o.device ?? "an unknown device"} since ${o.startedAt}, ` +
          // Who opened it, when an agent did (issue 35 §4): the learner sees whose session stands in the way.
          (o.agent ? `opened by agent ${o.agent}, ` : "") +
          (o.pausedAt === null ? "" : `paused since ${o.pausedAt}, `) +
          `last checkpoint ${o.lastCheckpointAt ?? "unknown"} (${o.draftId}); ` +
          howToEnd(o, device),
      );
      return 2;
    }
  }
}

export const start: Command = {
  name: "start",
  summary: "Starts a session on a topic and prints its working memory (hot.md).",
  options: {
    topic: "the topic (default: the one of the last session)",
    interactive: "resolve pending drafts with [R]esume [S]ave [D]iscard [I]gnore prompts",
    "if-open": "what to do when a session is already open: refuse (default) or keep",
    "ignore-pending": "start even though other drafts are pending, leaving them as they are",
    agent: "who opens the session when it is not the learner by hand, e.g. claude-code:<session id>",
  },
  example: "palee session start --topic T-rust",
  run: runStart,
};
