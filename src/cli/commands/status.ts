import { openJson } from "../../core/formats/json";
import { formatDuration, formatElapsed } from "../../core/time";
import type { Outcome } from "../output";
import type { StatusResult } from "../../core/sessions";
import type { Command, CommandContext } from "./command";

async function runStatus(ctx: CommandContext): Promise<Outcome> {
  const { core, out } = ctx;
  const { open, savedAs, silence, hotState, warnings } = await core.status();
  for (const w of warnings) out.warn(w);
  if (hotState === "corrupt" || hotState === "schema-invalid") {
    out.warn(`${core.layout.hot} is ${hotState}; "palee session rebuild" regenerates it`);
  }
  if (out.json) {
    // saved_as: the session an end saved before it stopped short of tidying hot.md (contract §4 Reconcile).
    out.doc({
      open: open ? openJson(open) : null,
      ...(savedAs !== null ? { saved_as: savedAs } : {}),
    });
  }
  if (!open)
    out.text(savedAs === null ? "No open session." : `No open session (the last one was saved as ${savedAs}).`);
  else {
    out.text(`Open session: ${open.topicId} on ${open.device ?? "unknown device"}, started ${open.startedAt}`);
    // Who opened it, when an agent host did (contract §4b): the learner sees why an agent's end may close it.
    if (open.agent !== null) out.text(`Opened by agent ${open.agent}`);
    const studied = formatElapsed(open.elapsedSeconds * 1000);
    const breaks = open.breakMinutes > 0 ? ` studied, ${formatDuration(open.breakMinutes)} of breaks not counted` : "";
    if (open.pausedAt !== null) out.text(`Paused since ${open.pausedAt} ("palee session continue" goes on)`);
    const checkpoint = open.lastCheckpointAt ?? "(none)";
    out.text(`Elapsed: ${studied}${breaks}; last checkpoint ${checkpoint}; draft ${open.draftId}`);
    if (silence) out.text(`${silence.text}${silenceHint(silence)}`);
  }
  return 0;
}

/**
 * After a long silence, how to end: commands that run as written and are accepted (issue 35 §4), never a
 * bare `end`, which refuses without a terminal. A session whose draft is gone cannot end at now.
 */
function silenceHint(silence: NonNullable<StatusResult["silence"]>): string {
  if (!silence.long) return "";
  if (silence.draftGone) {
    return (
      '; its draft is gone, so "palee session end --at last" closes it at its start (0 min), ' +
      "or --at with the time it ended records until then"
    );
  }
  return '; "palee session end --at last" ends it at the last activity (--at now or --at HH:MM: then)';
}

export const status: Command = {
  name: "status",
  summary: "Says whether a session is open: its topic, device, time studied and last checkpoint.",
  options: {},
  example: "palee session status --json",
  run: runStatus,
};
