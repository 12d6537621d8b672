/**
 * Obsidian Sync delivering another device's changes after layout ready, for plugin tests.
 *
 * How faithful it is: Sync writes files through the vault (create/modify/delete events, the metadata cache
 * lagging as after any write), one file at a time, in an order of its own, seconds after the app opened; a
 * delivery here does exactly that, at the moment the test chooses, and time moves only with the test's
 * ticks. Not modelled: Sync's own conflict merging, partial files, or its "syncing" status, which no plugin
 * API exposes (the plugin can only watch the folder go quiet).
 */
import type { ObsidianHarness } from "./obsidian-harness";
import { settle } from "./plugin-harness";

export interface Delivery {
  /** Files written (created or replaced), in this order. */
  write?: Record<string, string>;
  /** Files deleted after the writes. */
  remove?: string[];
}

export async function syncDelivers(h: ObsidianHarness, delivery: Delivery): Promise<void> {
  for (const [path, text] of Object.entries(delivery.write ?? {})) h.write(path, text);
  for (const path of delivery.remove ?? []) await h.remove(path);
  await settle();
}
