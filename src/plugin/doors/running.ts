/** What the doors ask of the open session before running a flow, as the commands' checkCallback does. */
import type { OpenState } from "../session-controller";
import type { FlowContext } from "../flows/context";
import { continueSession, pause } from "../flows/pause";

/** This device's running session, or null after saying there is none to act on. */
export function runningHere(ctx: FlowContext): OpenState | null {
  const open = ctx.controller.open;
  if (open && open.mine && open.running) return open;
  ctx.notify("No session of this device is running.");
  return null;
}

export async function pauseOrContinue(ctx: FlowContext, verb: "pause" | "continue"): Promise<void> {
  const open = runningHere(ctx);
  if (!open) return;
  if ((open.pausedMs !== null) === (verb === "pause")) {
    return ctx.notify(`The session is ${verb === "pause" ? "already" : "not"} paused.`);
  }
  return verb === "pause" ? pause(ctx) : continueSession(ctx);
}
