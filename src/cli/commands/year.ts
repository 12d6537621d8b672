/** `palee session year` (contract §5): the year view as a 7-row grid and its summary, or its JSON document. */
import { yearGrid, yearJson, yearSummary } from "../../core/goals";
import { skippedWarning } from "../../core/records/records";
import type { Values } from "../options";
import type { Outcome } from "../output";
import { printable } from "../text";
import type { Command, CommandContext } from "./command";

async function runYear(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { out } = ctx;
  const result = await ctx.core.year({ asOf: values["as-of"] ?? null });
  for (const s of result.skipped) out.warn(skippedWarning(s));
  for (const w of result.warnings) out.warn(printable(w));
  if (out.json) {
    out.doc({ ...yearJson(result.view), warnings: result.warnings });
    return 0;
  }
  for (const line of [...yearGrid(result.view), "", ...yearSummary(result.view)]) out.text(line);
  return 0;
}

export const year: Command = {
  name: "year",
  summary: "Shows a year of study: minutes per day as a grid, weeks met, the week streak and the day chain.",
  options: { "as-of": "the last day shown, YYYY-MM-DD (default today)" },
  example: "palee session year",
  run: runYear,
};
