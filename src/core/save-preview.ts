import type { Draft } from "./records";
import { isAliveElsewhere, saveGroup, savePlanOf } from "./recovery";

/** Where and when a preview is asked: this device, now (epoch ms), the grace period in ms, its open draft. */
export interface PreviewContext {
  device: string;
  now: number;
  graceMs: number;
  openDraft?: string | null;
}

/** What the recovery modal shows for a draft before the learner picks an action. */
export interface SavePreview {
  /** What Save would record: the draft with its sync-conflict copies, by the same rule as Save itself. */
  durationMinutes: number;
  /** Another device checkpointed it within the grace period: acting on it here needs a second press. */
  aliveElsewhere: boolean;
}

/** The preview of Save for `draft`, among the `drafts` shown with it. */
export function previewSave(draft: Draft, drafts: readonly Draft[], at: PreviewContext): SavePreview {
  const { device, now, graceMs, openDraft } = at;
  return {
    durationMinutes: savePlanOf(saveGroup(draft, drafts, device, now, graceMs, openDraft), now).durationMinutes,
    aliveElsewhere: isAliveElsewhere(draft, device, now, graceMs),
  };
}
