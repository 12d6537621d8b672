// Pure recovery rules, one concept per module: which drafts run elsewhere (liveness), which a note already
// absorbed (absorbed), what reconcile does (reconcile-plan) and what Save records (save-plan).
export { DEFAULT_GRACE_MS, checkpointedWithin, isAliveElsewhere, isThisDevice } from "./liveness";
export {
  CLOCK_BEHIND_MS,
  SAVED_WITHIN_MS,
  absorbedAfter,
  absorbedBy,
  absorbedCopies,
  duplicateSaves,
  savedDraft,
  savedIn,
} from "./absorbed";
export type { ReconcileContext, ReconcilePlan } from "./reconcile-plan";
export { pendingDrafts, planReconcile } from "./reconcile-plan";
export type { SaveContext, SavePlan, SavePreview } from "./save-plan";
export { copiesOf, previewSave, saveGroup, savePlanOf } from "./save-plan";
export type { Sitting, SittingChoice } from "./sittings";
export { chooseSitting, sittingsOf } from "./sittings";
