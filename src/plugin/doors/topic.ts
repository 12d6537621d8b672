/**
 * A topic given as text from outside the app (an `obsidian://` link, the app's command line): an ID or a topic
 * note's name, alias or path, resolved by the core's matcher (contract §4 "finding a topic by name") over the
 * topic notes the metadata cache knows. The answer is a choice of the topic picker, so the start that follows
 * is the picker's own.
 */
import type { TFile } from "obsidian";
import { UsageError } from "../../core/errors";
import type { TopicNote } from "../../core/topics/resolve";
import {
  badTopicNoteFromFields,
  classifyTopicValue,
  findTopicByName,
  topicNoteFromFields,
} from "../../core/topics/resolve";
import type { FlowContext } from "../flows/context";
import type { TopicChoice } from "../ui/topic-picker";

function topicNoteOfFile(ctx: FlowContext, file: TFile): TopicNote | null {
  const frontmatter: unknown = ctx.app.metadataCache.getFileCache(file)?.frontmatter;
  if (frontmatter === null || typeof frontmatter !== "object") return null;
  return topicNoteFromFields(file.path, frontmatter as Record<string, unknown>);
}

/** A name that finds only a note whose palee_id is not a topic ID: refused for that reason (issue 35 §3). */
function badIdRefusal(ctx: FlowContext, name: string): UsageError | null {
  const folder = `${ctx.controller.layout.folder}/`;
  const bad = ctx.app.vault
    .getMarkdownFiles()
    .filter((file) => !file.path.startsWith(folder))
    .map((file) => {
      const frontmatter: unknown = ctx.app.metadataCache.getFileCache(file)?.frontmatter;
      const fields = frontmatter !== null && typeof frontmatter === "object" ? frontmatter : {};
      return badTopicNoteFromFields(file.path, fields as Record<string, unknown>);
    })
    .filter((note): note is TopicNote => note !== null);
  const match = findTopicByName(name, bad);
  const note = match.kind === "found" ? match.note : match.kind === "ambiguous" ? match.matches[0] : null;
  if (note === null) return null;
  return new UsageError(
    `the note ${note.path} has palee_id ${JSON.stringify(note.topicId)}, which is not a topic ID: correct it`,
    "invalid_topic",
  );
}

function topicNotes(ctx: FlowContext): TopicNote[] {
  const folder = `${ctx.controller.layout.folder}/`;
  return ctx.app.vault
    .getMarkdownFiles()
    .filter((file) => !file.path.startsWith(folder))
    .map((file) => topicNoteOfFile(ctx, file))
    .filter((note): note is TopicNote => note !== null);
}

const noteChoice = (note: TopicNote): TopicChoice => ({
  kind: "topic-note",
  topicId: note.topicId,
  notePath: note.path,
  noteName: note.name,
});

/**
 * The choice a topic text stands for; null when none was given. A topic ID must be known (a topic note's or a
 * past session's): a link or a script never starts a new topic by a typo. Refusals are PaleeErrors
 * (`unknown_topic`, `ambiguous_topic`, `invalid_topic`) whose message says what to do.
 */
export async function resolveTopic(ctx: FlowContext, raw: string | undefined): Promise<TopicChoice | null> {
  const value = classifyTopicValue(raw);
  if (value.kind === "none") return null;
  const notes = topicNotes(ctx);
  if (value.kind === "name") {
    const match = findTopicByName(value.name, notes);
    if (match.kind === "found") return noteChoice(match.note);
    const named = (list: TopicNote[]) => list.map((n) => `${n.name} (${n.topicId})`).join(", ");
    throw match.kind === "ambiguous"
      ? new UsageError(`"${value.name}" matches several topics: ${named(match.matches)}`, "ambiguous_topic")
      : (badIdRefusal(ctx, value.name) ?? new UsageError(`no topic note is named "${value.name}"`, "unknown_topic"));
  }
  if (value.kind !== "id") return null;
  const note = notes.find((n) => n.topicId === value.topicId);
  if (note) return noteChoice(note);
  if ((await ctx.controller.pastTopics()).includes(value.topicId))
    return { kind: "past-topic", topicId: value.topicId };
  throw new UsageError(
    `no topic note or past session has the topic ${value.topicId}: start it once from the topic picker`,
    "unknown_topic",
  );
}
