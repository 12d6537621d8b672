import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";

async function runWhere(ctx: CommandContext): Promise<Outcome> {
  if (ctx.out.json) ctx.out.doc({ folder: ctx.core.layout.folder });
  ctx.out.text(`Sessions are in ${ctx.core.layout.folder}.`);
  return 0;
}

export const where: Command = {
  name: "where",
  summary: "Says which folder holds the sessions.",
  options: {},
  example: "palee session where",
  run: runWhere,
};
