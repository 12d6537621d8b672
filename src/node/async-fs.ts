/**
 * Node's file functions as promises, for the CLI and `palee mcp` (never the plugin). Two kinds:
 *  - readdir, readFile, writeFile, access: the callback API, promisified (not fs.promises: its first use loads
 *    readline, the file watchers and directory handles on every CLI call, none of which PALEE uses). The early
 *    listing's readdir overlaps the bundle's load; a read of several files at once overlaps them.
 *  - the rest (open, sync, close, link, rename, mkdir, lstat, stat, realpath, rm, unlink, copyFile): done
 *    synchronously, their answer or error returned as a settled promise. The CLI waits for each anyway, and
 *    each thread-pool round trip costs it 0.2–0.8 ms idle (docs/decisions.md "Synchronous fs calls where the
 *    CLI waits"); `palee mcp` serves one request at a time. Same answers and errors as the callback API.
 * Callers import this module by name (`* as fs` would copy every property of node:fs as it loads, esbuild); the
 * crash tests replace its functions to kill a write at each step.
 */
import type { MakeDirectoryOptions, PathLike, RmOptions, Stats } from "node:fs";
import {
  access as accessCallback,
  readFile as readFileCallback,
  readdir as readdirCallback,
  writeFile as writeFileCallback,
  closeSync,
  copyFileSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { promisify } from "node:util";

export const access = promisify(accessCallback);
export const readFile = promisify(readFileCallback);
export const readdir = promisify(readdirCallback);
export const writeFile = promisify(writeFileCallback);

/** `work` done now, as a promise of its answer or of its error (never a synchronous throw). */
function settled<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- node:fs's own error, as given
    return Promise.reject(error);
  }
}

export const copyFile = (from: PathLike, to: PathLike, mode?: number): Promise<void> =>
  settled(() => copyFileSync(from, to, mode));
export const link = (existing: PathLike, created: PathLike): Promise<void> =>
  settled(() => linkSync(existing, created));
export const lstat = (file: PathLike): Promise<Stats> => settled(() => lstatSync(file));
export const mkdir = (dir: PathLike, options?: MakeDirectoryOptions): Promise<string | undefined> =>
  settled(() => mkdirSync(dir, options));
/** The native realpath, as fs.promises' is. */
export const realpath = (file: PathLike): Promise<string> => settled(() => realpathSync.native(file));
export const rename = (from: PathLike, to: PathLike): Promise<void> => settled(() => renameSync(from, to));
export const rm = (file: PathLike, options?: RmOptions): Promise<void> => settled(() => rmSync(file, options));
export const stat = (file: PathLike): Promise<Stats> => settled(() => statSync(file));
export const unlink = (file: PathLike): Promise<void> => settled(() => unlinkSync(file));

/** An open file: its descriptor, flushed to disk by `sync`, closed by `close` (once). */
export interface OpenFile {
  readonly fd: number;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export function open(file: string, flags: string): Promise<OpenFile> {
  return settled(() => {
    const fd = openSync(file, flags);
    return { fd, sync: () => settled(() => fsyncSync(fd)), close: () => settled(() => closeSync(fd)) };
  });
}
