/**
 * A topic given as text from outside the app (an `obsidian://` link, the app's command line): an ID or a topic
 * note's name, alias or path, resolved by the core's matcher (contract §4 "finding a topic by name") over the
 * plugin's topic notes, with the core's refusals. The answer is a choice of the topic picker, so the start that
 * follows is the picker's own.
 */
import { classifyTopicValue, topicNoteForName, unknownTopicIdRefusal } from "../../core/topics";
import type { FlowContext } from "../flows/context";
import { noteChoice } from "../flows/topics";
import type { TopicChoice } from "../ui/topic-picker";

/**
 * The choice a topic text stands for; null when none was given. A topic ID must be known (a topic note's or a
 * past session's): a link or a script never starts a new topic by a typo. Refusals are PaleeErrors
 * (`unknown_topic`, `ambiguous_topic`, `invalid_topic`) in the core's words.
 */
export async function resolveTopic(ctx: FlowContext, raw: string | undefined): Promise<TopicChoice | null> {
  const value = classifyTopicValue(raw);
  if (value.kind === "none") return null;
  const { notes, invalid } = ctx.topicNotes.notes();
  if (value.kind === "name") return noteChoice(topicNoteForName(value.name, notes, { invalid, newIds: false }));
  const note = notes.find((n) => n.topicId === value.topicId);
  if (note) return noteChoice(note);
  const past = await ctx.controller.pastTopics();
  if (past.includes(value.topicId)) return { kind: "past-topic", topicId: value.topicId };
  throw unknownTopicIdRefusal(value.topicId, [...notes.map((n) => n.topicId), ...past]);
}
