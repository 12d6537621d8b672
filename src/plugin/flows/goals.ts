/**
 * Goals in the plugin (contract §5 version 4): the `set-goals` dialog, which writes plan.md through
 * FileManager.processFrontMatter (only the keys changed; the body untouched; an unreadable plan.md never
 * written), and `open-year`, the history view at its Year section.
 */
import { TFile } from "obsidian";
import { PaleeError, errorMessage } from "../../core/errors";
import type { Fields } from "../../core/records/frontmatter";
import { classifyRecord } from "../../core/records/frontmatter";
import { normalizeTopic } from "../../core/topics/ids";
import type { GoalChange, GoalOptionsText, Plan } from "../../core/goals";
import { goalChangeOf, goalFor, newPlanText, planUpdatesAll, readPlan, WEEKDAYS } from "../../core/goals";
import { localDay, mondayOf } from "../../core/time";
import type { GoalsInput } from "../ui/goals-modal";
import { GoalsModal } from "../ui/goals-modal";
import { HISTORY_VIEW } from "../ui/history-view";
import type { FlowContext } from "./context";
import { openHistory } from "./insight";
import { LONG_NOTICE_MS, fail } from "./notices";
import { topicName } from "./topics";

const text = (n: number | null | undefined): string => (n === null || n === undefined ? "" : String(n));

function currentInput(plan: Plan, monday: number, topicId: string | null): GoalsInput {
  const goal = goalFor(plan, monday);
  const topic = plan.topics.find((t) => t.topicId === topicId);
  return {
    minutesPerWeek: text(goal?.minutesPerWeek),
    sessionsPerWeek: text(goal?.sessionsPerWeek),
    topicMinutesPerWeek: text(topic?.minutesPerWeek),
    topicSessionsPerWeek: text(topic?.sessionsPerWeek),
    restDays: plan.restDays.map((d) => WEEKDAYS[d]).join(","),
    freezesPerMonth: String(plan.freezesPerMonth),
    minMinutes: String(plan.minMinutes),
    pause: "",
    unpause: "",
  };
}

/** A goal's targets as changes: a cleared field clears the goal, then the other target is set again. */
function targetChanges(was: [string, string], now: [string, string], topicId: string | null): GoalChange[] {
  const [minutes, sessions] = [now[0].trim(), now[1].trim()];
  if (minutes === was[0].trim() && sessions === was[1].trim()) return [];
  const changes: GoalChange[] = [];
  if (minutes === "" || sessions === "") changes.push(goalChangeOf({ clear: true }, topicId));
  const set: GoalOptionsText = {};
  if (minutes !== "") set.minutesPerWeek = minutes;
  if (sessions !== "") set.sessionsPerWeek = sessions;
  if (minutes !== "" || sessions !== "") changes.push(goalChangeOf(set, topicId));
  return changes;
}

/** The changes the dialog asks for, checked (a refusal throws, before anything is written). */
export function dialogChanges(was: GoalsInput, now: GoalsInput, topicId: string | null): GoalChange[] {
  const changes = targetChanges(
    [was.minutesPerWeek, was.sessionsPerWeek],
    [now.minutesPerWeek, now.sessionsPerWeek],
    null,
  );
  if (topicId !== null) {
    const topic: [string, string] = [now.topicMinutesPerWeek, now.topicSessionsPerWeek];
    changes.push(...targetChanges([was.topicMinutesPerWeek, was.topicSessionsPerWeek], topic, topicId));
  }
  const rules: GoalOptionsText = {};
  if (now.restDays.trim() !== was.restDays.trim()) rules.restDays = now.restDays.trim() === "" ? "none" : now.restDays;
  if (now.freezesPerMonth.trim() !== was.freezesPerMonth.trim()) rules.freezesPerMonth = now.freezesPerMonth;
  if (now.minMinutes.trim() !== was.minMinutes.trim()) rules.minMinutes = now.minMinutes;
  if (now.pause.trim() !== "") rules.pause = now.pause;
  if (now.unpause.trim() !== "") rules.unpause = now.unpause;
  if (Object.keys(rules).length > 0) changes.push(goalChangeOf(rules, null));
  return changes;
}

/** Writes the changes into plan.md: created when missing, else through processFrontMatter. */
async function write(ctx: FlowContext, path: string, before: string | null, changes: GoalChange[]): Promise<void> {
  const today = localDay(ctx.controller.now(), ctx.controller.offsetAt);
  if (before === null) {
    await ctx.store.create(path, newPlanText(planUpdatesAll(null, changes, today)));
    return;
  }
  const file = ctx.app.vault.getAbstractFileByPath(path);
  if (!(file instanceof TFile)) throw new Error(`${path} is not a note`);
  await ctx.app.fileManager.processFrontMatter(file, (frontmatter: Fields) => {
    // From the properties as they are now (another device may have changed them since the dialog opened).
    Object.assign(frontmatter, planUpdatesAll(frontmatter, changes, today));
  });
}

/** hot.md's active topic (the last one studied when no session is open), or null. */
async function activeTopic(ctx: FlowContext): Promise<string | null> {
  try {
    const hot = classifyRecord(await ctx.controller.readHot());
    return hot.state === "ok" ? normalizeTopic(hot.fields.active_topic) : null;
  } catch {
    return null; // no topic field in the dialog, nothing worse
  }
}

export async function setGoals(ctx: FlowContext): Promise<void> {
  const path = `${ctx.controller.layout.folder}/plan.md`;
  let before: string | null;
  try {
    before = await ctx.store.read(path);
  } catch (error) {
    fail(ctx, "read your goals", error);
    return;
  }
  const read = readPlan(before, path);
  if (!read.writable) {
    const why = read.problem ?? read.state;
    ctx.notify(`${path} cannot be read (${why}): fix or remove it first. Nothing was changed.`, LONG_NOTICE_MS);
    return;
  }
  const topicId = ctx.controller.open?.session.topicId ?? (await activeTopic(ctx));
  const monday = mondayOf(localDay(ctx.controller.now(), ctx.controller.offsetAt));
  const was = currentInput(read.plan, monday, topicId);
  const shown = topicId === null ? null : topicName(ctx, topicId, ctx.controller.open?.session.topicNote);
  new GoalsModal(ctx.app, was, shown, async (input) => {
    let changes: GoalChange[];
    try {
      changes = dialogChanges(was, input, topicId);
      planUpdatesAll(read.fields, changes, 0); // an --unpause naming no pause is refused here, before writing
    } catch (error) {
      if (!(error instanceof PaleeError)) throw error;
      ctx.notify(`Goals not saved: ${error.message.replace(/--([a-z-]+)/g, "$1")}`, LONG_NOTICE_MS);
      return false;
    }
    if (changes.length === 0) return true;
    try {
      await write(ctx, path, before, changes);
    } catch (error) {
      ctx.notify(`Goals not saved: ${path} could not be written (${errorMessage(error).split("\n")[0]}).`);
      return false;
    }
    ctx.notify(`Goals saved in ${path}.`);
    return true;
  }).open();
}

/** The history view, scrolled to its Year section. */
export async function openYear(ctx: FlowContext): Promise<void> {
  await openHistory(ctx.app, (message) => ctx.notify(message, 8000));
  const leaf = ctx.app.workspace.getLeavesOfType(HISTORY_VIEW.type)[0];
  const view = leaf?.view as { refresh?: () => Promise<void>; containerEl?: HTMLElement } | undefined;
  await view?.refresh?.();
  const year = view?.containerEl?.querySelector(".palee-year");
  if (year instanceof HTMLElement && typeof year.scrollIntoView === "function") year.scrollIntoView();
}
