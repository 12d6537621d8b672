/**
 * The history view as Obsidian would make it: from the factory the plugin registered, on a new leaf of the
 * in-memory workspace.
 */
import type { View, WorkspaceLeaf } from "obsidian";
import { WorkspaceLeaf as MockLeaf } from "obsidian-test-mocks/obsidian";
import { HISTORY_VIEW } from "../../../src/plugin/ui/history-view";
import type { HistoryView } from "../../../src/plugin/ui/history-view";
import type { LoadedPlugin } from "./plugin-harness";
import { settle } from "./plugin-harness";

/** Made by the registered factory, not opened yet; throws when the plugin registered no history view. */
export function createHistoryView(p: LoadedPlugin): HistoryView {
  const views = (p.plugin as unknown as { views__: Map<string, (leaf: WorkspaceLeaf) => View> }).views__;
  const creator = views.get(HISTORY_VIEW.type);
  if (!creator) throw new Error("the history view is not registered");
  return creator(MockLeaf.create2__(p.h.mock) as unknown as WorkspaceLeaf) as HistoryView;
}

/** Made and opened, with its first draw settled. */
export async function openHistoryView(p: LoadedPlugin): Promise<HistoryView> {
  const view = createHistoryView(p);
  await view.onOpen();
  await settle();
  return view;
}
