/**
 * Reading and writing the settings file that `hook --install` / `--uninstall` edit. It is refused, and never
 * written, when it is not JSON, not a plain file (a symbolic link is refused: palee edits only the file it is
 * given, never one a link leads to elsewhere) or not writable. A write is atomic: a temp file beside it, then
 * a rename, so the host never reads half a file; its indentation, final newline and byte-order mark are kept.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import * as fs from "../../node/async-fs";
import * as path from "node:path";
import { UsageError } from "../../core/errors";

export interface SettingsText {
  file: string;
  /** false: the file does not exist yet (install creates it and its folder). */
  exists: boolean;
  /** The file's text as read ("" when it does not exist). */
  raw: string;
  mode: number;
}

/** The file changed between its read and the write (another editor, the host): the write did not happen. */
export class SettingsChanged extends Error {}

const codeOf = (error: unknown): string => String((error as { code?: unknown }).code ?? error);

export async function readSettings(file: string): Promise<SettingsText> {
  let stat;
  try {
    stat = await fs.lstat(file);
  } catch (error) {
    if (codeOf(error) !== "ENOENT") throw new UsageError(`cannot read ${file} (${codeOf(error)}): nothing was changed`);
    return { file, exists: false, raw: "", mode: 0o644 };
  }
  if (stat.isSymbolicLink()) {
    throw new UsageError(
      `${file} is a symbolic link: palee edits only a plain file (give the file it leads to with --settings); ` +
        "nothing was changed",
    );
  }
  if (!stat.isFile()) throw new UsageError(`${file} is not a file: nothing was changed`);
  // No write permission for anyone: the learner made it read-only on purpose (root could still write it).
  if ((stat.mode & 0o222) === 0) throw new UsageError(`${file} is read-only: nothing was changed`);
  try {
    return { file, exists: true, raw: await fs.readFile(file, "utf8"), mode: stat.mode & 0o777 };
  } catch (error) {
    throw new UsageError(`cannot read ${file} (${codeOf(error)}): nothing was changed`);
  }
}

async function current(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return null;
    throw error;
  }
}

/**
 * Writes `text` over the file read as `read`, atomically (a temp file beside it, then a rename). Just before
 * the rename the file must still be as read: if it changed meanwhile, nothing is written and SettingsChanged
 * is thrown (the caller reads again), so an edit made during the install is never lost.
 */
export async function writeSettings(read: SettingsText, text: string): Promise<void> {
  const { file } = read;
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.palee-${randomBytes(4).toString("hex")}.tmp`);
  try {
    if (read.exists) await fs.access(file, constants.W_OK);
    else await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(temp, text, { flag: "wx", mode: read.mode });
    if ((await current(file)) !== (read.exists ? read.raw : null)) throw new SettingsChanged(file);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    if (error instanceof SettingsChanged) throw error;
    throw new UsageError(`cannot write ${file} (${codeOf(error)}): nothing was changed`);
  }
}
