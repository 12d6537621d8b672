/**
 * Node's file functions as promises, made from its callback API rather than taken from fs.promises: the first
 * use of fs.promises loads readline, the file watchers and directory handles with it (on every CLI
 * call), none of which PALEE uses. Same calls, same answers and errors; realpath is the native one, as
 * fs.promises' is. Imported by name: `* as fs` would copy every property of node:fs as it loads (esbuild).
 */
import {
  access as accessCallback,
  copyFile as copyFileCallback,
  link as linkCallback,
  lstat as lstatCallback,
  mkdir as mkdirCallback,
  readFile as readFileCallback,
  readdir as readdirCallback,
  realpath as realpathCallback,
  rename as renameCallback,
  rm as rmCallback,
  stat as statCallback,
  unlink as unlinkCallback,
  writeFile as writeFileCallback,
  close as closeCallback,
  fsync as fsyncCallback,
  open as openCallback,
} from "node:fs";
import { promisify } from "node:util";

export const access = promisify(accessCallback);
export const copyFile = promisify(copyFileCallback);
export const link = promisify(linkCallback);
export const lstat = promisify(lstatCallback);
export const mkdir = promisify(mkdirCallback);
export const readFile = promisify(readFileCallback);
export const readdir = promisify(readdirCallback);
export const realpath = promisify(realpathCallback.native);
export const rename = promisify(renameCallback);
export const rm = promisify(rmCallback);
export const stat = promisify(statCallback);
export const unlink = promisify(unlinkCallback);
export const writeFile = promisify(writeFileCallback);

const openFd = promisify(openCallback);
const fsync = promisify(fsyncCallback);
const close = promisify(closeCallback);

/** An open file: its descriptor, flushed to disk by `sync`, closed by `close` (once). */
export interface OpenFile {
  readonly fd: number;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export async function open(file: string, flags: string): Promise<OpenFile> {
  const fd = await openFd(file, flags);
  return { fd, sync: () => fsync(fd), close: () => close(fd) };
}
