/**
 * The app's own command line (Obsidian 1.12.2 and later, contract §5 version 3): `obsidian palee-sessions:start
 * topic=…` and the others run the commands' flows inside the app, so the status bar and the history view follow
 * at once, and answer with what the flow would have said in a notice. An agent on a machine where Obsidian is
 * open writes through the app this way, never beside it.
 */
import type { CliData, CliFlags } from "obsidian";
import { endTimeOf } from "../../core/honest-time";
import { errorMessage } from "../../core/errors";
import { checkpoint } from "../flows/checkpoint";
import type { FlowContext } from "../flows/context";
import { endPreview, endWith } from "../flows/end";
import { sentence } from "../flows/notices";
import { showStatus } from "../flows/open-session";
import { start, startWith } from "../flows/start";
import { pauseOrContinue, runningHere } from "./running";
import { resolveTopic } from "./topic";
import { nextText } from "../flows/study-next";
import { headingProbe } from "../flows/review-queue";
import { parseRating } from "../../core/review/rating";

/** rating= as typed; a bad one is refused by parseRating (invalid_rating), said as the answer. */
const ratingOf = (value: string | null): number | null => (value === null ? null : parseRating(value));

export const CLI_PREFIX = "palee-sessions";

export interface CliDoor {
  command: string;
  description: string;
  flags: CliFlags | null;
  run: (flow: FlowContext, params: CliData) => Promise<void | string>;
}

/** A flag's text; a flag given without a value (`"true"`) is no text. */
const text = (params: CliData, key: string): string | null => {
  const value = params[key];
  return typeof value === "string" && value !== "true" ? value : null;
};

const flag = (value: string, description: string) => ({ value, description });
const TOPIC = flag("<topic>", "a topic ID or a topic note's name");

async function startDoor(flow: FlowContext, params: CliData): Promise<void | string> {
  const choice = await resolveTopic(flow, text(params, "topic") ?? undefined);
  if (choice === null) return "Give the topic: topic=<topic ID or note name>.";
  return flow.controller.open ? start(flow) : startWith(flow, choice);
}

async function endDoor(flow: FlowContext, params: CliData): Promise<void> {
  const open = runningHere(flow);
  if (!open) return;
  const at = text(params, "at");
  // Without at=, the end the command preselects without its dialog: the pause, or the last activity after a
  // long silence; never a silent gap counted as study.
  const preview = endPreview(flow, open);
  const chosen = preview.preview(preview.preselected, "");
  const endAt = (at === null ? undefined : endTimeOf(at)) ?? ("endAt" in chosen ? chosen.endAt : { kind: "now" });
  const recall = {
    recall: text(params, "recall"),
    rating: ratingOf(text(params, "rating")),
    done: params.done === "true",
  };
  return endWith(
    flow,
    { summary: text(params, "summary"), nextAction: text(params, "next"), endAt, ...recall },
    open.session,
  );
}

async function contextDoor(flow: FlowContext, params: CliData): Promise<string> {
  const choice = await resolveTopic(flow, text(params, "topic") ?? undefined);
  const topicId = choice !== null && "topicId" in choice ? choice.topicId : null;
  const brief = await flow.controller.brief(topicId, headingProbe(flow));
  return brief.topicId === null ? "No topic to brief yet." : brief.text.trim();
}

export const CLI_DOORS: readonly CliDoor[] = [
  { command: "status", description: "Show the open session", flags: null, run: (f) => showStatus(f) },
  { command: "start", description: "Start a session", flags: { topic: { ...TOPIC, required: true } }, run: startDoor },
  {
    command: "checkpoint",
    description: "Save a checkpoint",
    flags: { note: flag("<text>", "notes to append") },
    run: async (f, p) => (runningHere(f) ? checkpoint(f, text(p, "note")) : undefined),
  },
  { command: "pause", description: "Pause the session", flags: null, run: (f) => pauseOrContinue(f, "pause") },
  { command: "continue", description: "Continue the session", flags: null, run: (f) => pauseOrContinue(f, "continue") },
  {
    command: "end",
    description: "End and save the session",
    flags: {
      summary: flag("<text>", "the summary"),
      next: flag("<text>", "the next action"),
      at: flag("<now|last|HH:MM|ISO>", "when it ended"),
      recall: flag("<text>", "what you remember, without looking"),
      rating: flag("<1-4|again|hard|good|easy>", "how well you recalled it"),
      done: flag("", "the carried next action was done"),
    },
    run: endDoor,
  },
  { command: "next", description: "What to study next", flags: null, run: (f) => nextText(f) },
  { command: "context", description: "Print the tutor brief", flags: { topic: TOPIC }, run: contextDoor },
];

/** Runs one door with a context whose notices become the answer (collected, not shown); never throws. */
export async function answer(ctx: FlowContext, door: CliDoor, params: CliData): Promise<string> {
  if (ctx.disposed) return "PALEE Sessions is being unloaded: nothing was done.";
  const said: string[] = [];
  const collect = { value: (message: string) => said.push(message) };
  const flow = Object.create(ctx, { notify: collect, notifyAction: collect }) as FlowContext;
  try {
    const result = await door.run(flow, params);
    if (typeof result === "string") said.push(result);
  } catch (error) {
    said.push(sentence(errorMessage(error)));
  }
  return said.length > 0 ? said.join("\n") : "A dialog is open in Obsidian: answer it there.";
}
