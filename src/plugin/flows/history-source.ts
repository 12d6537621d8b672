/**
 * What the study history view reads and what its buttons and links do (contract §5): confirmed sessions
 * through the scan cache (metadata cache first), the open session from memory, and which file events
 * concern it. A draft's autosave is no history change: the editor saves the open draft every ~2 s while the
 * learner types, and redrawing on each would snap open tables shut and take focus off Pause or End.
 */
import type { PaneType, TAbstractFile } from "obsidian";
import { statsMemo } from "../../core/insight/stats";
import { studyLogMemo } from "../../core/goals";
import { kindOf } from "../../core/scan";
import type { FlowContext } from "./context";
import { end } from "./end";
import { continueSession, pause } from "./pause";
import { openFile } from "./open-session";
import { recoverDrafts } from "./recovery";
import { nextChoices, queueNow } from "./review-queue";
import { startNext } from "./study-next";
import { topicNames } from "./topics";
import type { TopicChoice } from "../ui/topic-picker";
import type { HistoryChange, HistorySource } from "../ui/history-view";
import { historyModel, openSessionModel } from "../ui/history-view";

export function historySource(deps: FlowContext): HistorySource {
  const { app, controller } = deps;
  const sourcePath = (): string => controller.layout.index;
  const memo = statsMemo();
  const logMemo = studyLogMemo();
  let notes: ReadonlyMap<string, TopicChoice> = new Map();
  // The topic notes are read through deps.topicNotes, which keeps them until a note outside the session folder
  // changes: each load asks again at no cost.
  let names = topicNames(deps);
  return {
    async load() {
      names = topicNames(deps);
      const { confirmed, skipped } = await controller.confirmedSessions();
      // "Next up": the queue is read beside the sessions; a failure leaves the section out, never the view.
      const queue = await queueNow(deps, true).catch(() => null);
      notes = queue?.notes ?? notes;
      const planPath = `${controller.layout.folder}/plan.md`;
      return historyModel({
        plan: { text: await deps.store.read(planPath), path: planPath },
        nextUp: queue && nextChoices(queue.result, queue.names),
        confirmed,
        skipped,
        now: controller.now(),
        offsetAt: controller.offsetAt,
        open: controller.open,
        showSeconds: deps.settings().showSeconds,
        memo,
        logMemo,
      });
    },
    openSession: () => openSessionModel(controller.open),
    onChange(listener: (what: HistoryChange) => void) {
      const plan = (): string => `${controller.layout.folder}/plan.md`;
      const history = (path: string): boolean => concernsHistory(controller.layout.sessions, path) || path === plan();
      const refs = [
        app.metadataCache.on("changed", (file) => history(file.path) && listener("history")),
        app.vault.on("delete", (file: TAbstractFile) => history(file.path) && listener("history")),
        app.vault.on(
          "rename",
          (file: TAbstractFile, oldPath: string) => (history(file.path) || history(oldPath)) && listener("history"),
        ),
      ];
      const off = controller.onChange(() => listener("open"));
      return () => {
        off();
        app.metadataCache.offref(refs[0]);
        for (const ref of [refs[1], refs[2]]) app.vault.offref(ref);
      };
    },
    now: () => controller.now(),
    sourcePath,
    actions: {
      openPath: (path) => void openFile(app, path),
      openLink: (linktext: string, newLeaf: PaneType | boolean) =>
        void app.workspace.openLinkText(linktext, sourcePath(), newLeaf),
      end: () => void end(deps),
      pause: () => void pause(deps),
      continueSession: () => void continueSession(deps),
      recover: () => void recoverDrafts(deps),
      startTopic: (topicId) => void startNext(deps, topicId, notes),
      topicName: (topicId, topicNote) => names(topicId, topicNote),
      topicLinktext: (topicId) => deps.topicNotes.linktext(topicId),
    },
  };
}

/** A file of the session folder whose change the history shows: anything but a draft (the open session's file). */
export function concernsHistory(sessions: string, path: string): boolean {
  if (!path.startsWith(`${sessions}/`)) return false;
  return kindOf(path.slice(path.lastIndexOf("/") + 1)) !== "draft";
}
