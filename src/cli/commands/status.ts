import { openJson } from "../../core/formats/json";
import { formatDuration, formatElapsed } from "../../core/time";
import type { Outcome } from "../output";
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
    if (silence) {
      const hint = silence.long
        ? ': "palee session end" will ask when it ended (--at now, --at last or --at HH:MM)'
        : "";
      out.text(`${silence.text}${hint}`);
    }
  }
  return 0;
}

export const status: Command = {
  name: "status",
  summary: "Says whether a session is open: its topic, device, time studied and last checkpoint.",
  options: {},
  example: "palee session status --json",
  run: runStatus,
};
