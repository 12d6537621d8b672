import type { Skipped } from "../../core/records/records";
import type { ImportReport } from "../adapters/import-palee";
import { describeImport, importPaleeFolder } from "../adapters/import-palee";
import type { FlowContext } from "./context";
import { LONG_NOTICE_MS, fail } from "./notices";
import { recoverDrafts } from "./recovery";

/** Import a .palee folder, rebuild the views from what came in, then offer any imported draft for recovery. */
export async function importFolder(ctx: FlowContext): Promise<void> {
  const { controller } = ctx;
  let report: ImportReport;
  let unread: Skipped[] = [];
  try {
    const absorbed = await controller.absorbedDrafts();
    report = await importPaleeFolder(ctx.app.vault.adapter, ctx.store, controller.layout, absorbed);
    if (report.copied.length > 0) unread = (await controller.rebuild()).skipped;
  } catch (error) {
    fail(ctx, "import the .palee folder", error);
    return;
  }
  ctx.notify(describeImport(report, controller.layout.sessions, unread), LONG_NOTICE_MS);
  if (report.copied.some((p) => p.slice(p.lastIndexOf("/") + 1).startsWith("DRAFT-S-"))) await recoverDrafts(ctx);
}
