import type { TFile } from "obsidian";
import { errorMessage } from "../../core/errors";
import { normalizeTopic, topicIdForNote } from "../../core/records/ids";
import type { StartOptions } from "../../core/sessions";
import { ConfirmModal } from "../ui/confirm-modal";
import type { TopicChoice } from "../ui/topic-picker";
import type { FlowContext } from "./context";
import { LONG_NOTICE_MS, fail } from "./notices";

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

/** The active note (as a topic, or to become one) and the vault's topic notes, from the metadata cache. */
export function topicNoteChoices(ctx: FlowContext): TopicChoice[] {
  const { app, controller } = ctx;
  const choices: TopicChoice[] = [];
  const seen = new Set<string>();
  const folder = `${controller.layout.folder}/`;
  const active = app.workspace.getActiveFile();
  const activeTopic = active ? topicOfNote(ctx, active) : null;
  if (active && active.extension === "md" && !active.path.startsWith(folder)) {
    if (activeTopic) {
      choices.push({ kind: "topic-note", topicId: activeTopic, notePath: active.path, noteName: active.basename });
      seen.add(activeTopic);
    } else {
      choices.push({ kind: "use-current-note", notePath: active.path, noteName: active.basename });
    }
  }
  for (const file of app.vault.getMarkdownFiles()) {
    if (file.path.startsWith(folder) || file === active) continue;
    const topicId = topicOfNote(ctx, file);
    if (topicId && !seen.has(topicId)) {
      seen.add(topicId);
      choices.push({ kind: "topic-note", topicId, notePath: file.path, noteName: file.basename });
    }
  }
  return choices;
}

/** Why a topic typed in the picker cannot be used (TopicChoice new-topic, not valid). */
export function invalidTopicText(topicId: string): string {
  return (
    `"${topicId}" is not a valid topic ID: use T- followed by letters, digits, ".", "_" or "-" ` +
    "(e.g. T-rust-ownership)."
  );
}

/** A note's palee_id: any non-empty text (legacy IDs read from notes are accepted, not validated). */
function topicOfNote(ctx: FlowContext, file: TFile): string | null {
  const frontmatter: unknown = ctx.app.metadataCache.getFileCache(file)?.frontmatter;
  if (frontmatter === null || typeof frontmatter !== "object") return null;
  return normalizeTopic((frontmatter as Record<string, unknown>).palee_id);
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
