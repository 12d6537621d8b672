/**
 * `obsidian://palee-sessions?action=start|end|pause|continue|history|next[&topic=…]` (contract §5, version 3): phone
 * shortcuts and widgets run the commands' own flows. Parameters are only ever text: a topic is looked up, never
 * run or rendered as HTML. Whatever the link holds, the answer is a notice, never an exception.
 */
import type { ObsidianProtocolData } from "obsidian";
import { errorMessage } from "../../core/errors";
import type { FlowContext } from "../flows/context";
import { end } from "../flows/end";
import { openHistory } from "../flows/insight";
import { sentence } from "../flows/notices";
import { start, startWith } from "../flows/start";
import { pauseOrContinue } from "./running";
import { resolveTopic } from "./topic";

export const PROTOCOL_ACTION = "palee-sessions";

async function startFromLink(ctx: FlowContext, topic: string | undefined): Promise<void> {
  const choice = await resolveTopic(ctx, topic);
  // No topic: the picker; a session open or to recover first: the command's own answers.
  return choice === null || ctx.controller.open ? start(ctx) : startWith(ctx, choice);
}

const LINKS: Record<string, (ctx: FlowContext, params: ObsidianProtocolData) => Promise<void>> = {
  start: (ctx, params) => startFromLink(ctx, params.topic),
  end: (ctx) => end(ctx),
  pause: (ctx) => pauseOrContinue(ctx, "pause"),
  continue: (ctx) => pauseOrContinue(ctx, "continue"),
  history: (ctx) => openHistory(ctx.app, (message) => ctx.notify(message, 8000)),
  // The history view opens with "Next up" at its top (contract §5 version 4).
  next: (ctx) => openHistory(ctx.app, (message) => ctx.notify(message, 8000)),
};

const known = (verb: unknown): verb is string =>
  typeof verb === "string" && Object.prototype.hasOwnProperty.call(LINKS, verb);

export async function handleLink(ctx: FlowContext, params: ObsidianProtocolData): Promise<void> {
  if (ctx.disposed) return;
  // `do` is the same verb under a name the app never takes for itself (it may give `action` the link's name).
  const verb = known(params.action) ? params.action : params.do;
  if (!known(verb)) {
    ctx.notify(`A PALEE link takes action=${Object.keys(LINKS).join(", ")}.`);
    return;
  }
  try {
    await LINKS[verb](ctx, params);
  } catch (error) {
    if (!ctx.disposed) ctx.notify(sentence(errorMessage(error)));
  }
}
