import { skippedJson } from "../../core/formats/json";
import { skippedWarning } from "../../core/records/records";
import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";

async function runRebuild(ctx: CommandContext): Promise<Outcome> {
  const { core, out } = ctx;
  const r = await core.rebuild();
  for (const s of r.skipped) out.warn(skippedWarning(s));
  for (const w of r.warnings) out.warn(w);
  if (out.json) {
    out.doc({ status: "rebuilt", total_confirmed: r.totalConfirmed, skipped: r.skipped.map(skippedJson) });
  }
  out.text(`Rebuilt ${core.layout.hot} and ${core.layout.index} from ${r.totalConfirmed} session(s).`);
  return 0;
}

export const rebuild: Command = {
  name: "rebuild",
  summary: "Regenerates hot.md and index.md from the session notes (they are derived views).",
  options: {},
  example: "palee session rebuild",
  run: runRebuild,
};
