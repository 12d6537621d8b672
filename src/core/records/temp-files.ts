import { BusyError, errorMessage } from "../errors";
import type { Layout } from "./layout";
import { assertTempRemovable, isOwnTempFile } from "./layout";
import type { CorePorts } from "../ports";
import { MINUTE_MS } from "../time/index";

/** A temp file of the tool's own pattern older than this was left by a killed write (contract §2). */
export const STALE_TEMP_MS = 60 * MINUTE_MS;

/**
 * Temp files of the tool's own pattern older than an hour (left by a killed write) go to the trash (contract §2):
 * the only exception to the deletion boundary. A younger one may belong to a write in progress. One that
 * cannot be moved is named, never fatal. Returns what to tell the user. Run by rebuild (SessionsOptions), and
 * after a start or an end that wrote (sessions.ts).
 */
export async function trashStaleTempFiles(ports: CorePorts, layout: Layout): Promise<string[]> {
  const { store } = ports;
  const now = ports.clock.now();
  const said: string[] = [];
  for (const folder of [layout.folder, layout.sessions]) {
    // Every temp file's name begins with a dot: a 30 000-name listing then costs no pattern test per name.
    const temps = (await store.list(folder)).filter((n) => n[0] === "." && isOwnTempFile(layout, folder, n));
    for (const name of temps.sort()) {
      const path = `${folder}/${name}`;
      try {
        const modified = await store.modifiedAt(path);
        if (modified.kind !== "at" || now - modified.ms <= STALE_TEMP_MS) continue;
        assertTempRemovable(layout, path);
        await store.trash(path);
        said.push(`moved ${path} (left by an interrupted write) to the trash`);
      } catch (error) {
        if (error instanceof BusyError) throw error; // the CLI's vault lock was lost: nothing more is written
        said.push(`could not move ${path} (left by an interrupted write) to the trash: ${errorMessage(error)}`);
      }
    }
  }
  return said;
}
