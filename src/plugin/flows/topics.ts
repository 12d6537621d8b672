import { errorMessage } from "../../core/errors";
import type { TopicNamer, TopicNote } from "../../core/topics";
import { TOPIC_ID_RULE, normalizeTopic, topicIdForNote } from "../../core/topics";
import { topicNoteOfFile } from "../adapters/topic-notes";
import type { StartOptions } from "../../core/sessions";
import { ConfirmModal } from "../ui/confirm-modal";
import type { TopicChoice } from "../ui/topic-picker";
import type { FlowContext } from "./context";
import { LONG_NOTICE_MS, fail } from "./notices";

/**
 * The display names of topics as the plugin shows them (contract §5 version 4, topics by name): the note that
 * has the topic's palee_id names it, else the note a session linked, else the ID. Read once per use: a list
 * takes the namer once, a notice one name.
 */
export function topicNames(ctx: FlowContext): TopicNamer {
  return ctx.topicNotes.names();
}

/** One topic's display name (topicNames). */
export function topicName(ctx: FlowContext, topicId: string, topicNote?: string | null): string {
  return topicNames(ctx)(topicId, topicNote);
}

/** The picker's lines: the active note first, then topic notes, then topics of past sessions. */
export async function topicChoices(ctx: FlowContext): Promise<TopicChoice[]> {
  const choices = topicNoteChoices(ctx);
  const seen = new Set(choices.flatMap((c) => ("topicId" in c ? [c.topicId] : [])));
  for (const topicId of await ctx.controller.pastTopics()) {
    if (!seen.has(topicId)) {
      seen.add(topicId);
      choices.push({ kind: "past-topic", topicId });
    }
  }
  return choices;
}

/** A topic note as a line of the picker. */
export const noteChoice = (note: TopicNote): TopicChoice => ({
  kind: "topic-note",
  topicId: note.topicId,
  notePath: note.path,
  noteName: note.name,
  aliases: note.aliases,
});

const legacyNote = (note: TopicNote, legacy: string | null): TopicNote | null =>
  legacy === null ? null : { ...note, topicId: legacy };

/**
 * The active note (as a topic, or to become one) and the vault's topic notes (adapters/topic-notes.ts), one
 * line per topic. A note whose palee_id is a legacy ID (contract §2: accepted when read from a note) is offered
 * under that ID, as before; a session on it is not validated as new input.
 */
export function topicNoteChoices(ctx: FlowContext): TopicChoice[] {
  const { app, controller } = ctx;
  const { notes, legacy } = ctx.topicNotes.notes();
  const choices: TopicChoice[] = [];
  const seen = new Set<string>();
  const active = app.workspace.getActiveFile();
  if (active && active.extension === "md" && !active.path.startsWith(`${controller.layout.folder}/`)) {
    const read = topicNoteOfFile(app, active);
    const note = read === null ? null : read.kind === "topic" ? read.note : legacyNote(read.note, read.legacy);
    if (note) {
      choices.push(noteChoice(note));
      seen.add(note.topicId);
    } else {
      choices.push({ kind: "use-current-note", notePath: active.path, noteName: active.basename });
    }
  }
  for (const note of [...notes, ...legacy]) {
    if (note.path === active?.path || seen.has(note.topicId)) continue;
    seen.add(note.topicId);
    choices.push(noteChoice(note));
  }
  return choices;
}

/** Why a topic typed in the picker cannot be used (TopicChoice new-topic, not valid). */
export function invalidTopicText(topicId: string): string {
  return `"${topicId}" is not a valid topic ID: ${TOPIC_ID_RULE} (e.g. T-rust-ownership).`;
}

/**
 * A link to the note, as written into session notes: resolved from a note of the sessions folder (the API
 * wants a file path as the source; the draft's own name is not drawn yet).
 */
export function linkTo(ctx: FlowContext, path: string): string | null {
  const file = ctx.app.vault.getFileByPath(path);
  const from = `${ctx.controller.layout.sessions}/session.md`;
  return file ? `[[${ctx.app.metadataCache.fileToLinktext(file, from, true)}]]` : null;
}

/**
 * Writes palee_id into the note's properties after the learner confirms. Returns how to start on that
 * topic, or null when nothing is to start (declined, or the note could not be changed).
 */
export async function claimNoteAsTopic(ctx: FlowContext, notePath: string): Promise<StartOptions | null> {
  const { app, controller } = ctx;
  const file = app.vault.getFileByPath(notePath);
  if (!file) {
    ctx.notify(`${notePath} no longer exists.`);
    return null;
  }
  const topicId = topicIdForNote(file.basename, controller.now(), controller.random);
  const yes = await new Promise<boolean>((resolve) =>
    new ConfirmModal(
      app,
      "Use this note as a topic?",
      `"${file.basename}" gets the property palee_id: ${topicId}, and a session on it starts now.`,
      "Use as topic",
      resolve,
    ).open(),
  );
  if (!yes) return null;
  let chosen = topicId;
  let parsed = false;
  try {
    await app.fileManager.processFrontMatter(file, (frontmatter: Record<string, unknown>) => {
      parsed = true;
      const existing = normalizeTopic(frontmatter.palee_id);
      // It has a topic already (another device, or a legacy ID): keep it rather than overwrite it.
      if (existing !== null) chosen = existing;
      else frontmatter.palee_id = topicId;
    });
  } catch (error) {
    // The properties were read, so writing the note failed (disk, sync): not something to fix in them.
    if (parsed) {
      fail(ctx, `add palee_id to "${file.basename}"`, error);
      return null;
    }
    // processFrontMatter throws on YAML it cannot parse, and nothing is written then.
    const reason = errorMessage(error).split("\n")[0].trim();
    ctx.notify(
      `Could not add palee_id to "${file.basename}": its properties could not be read (${reason}). ` +
        "Fix them, or pick a topic instead.",
      LONG_NOTICE_MS,
    );
    return null;
  }
  const topicNote = linkTo(ctx, file.path);
  return chosen === topicId ? { topic: chosen, topicNote } : { activeNoteTopic: chosen, topicNote };
}
