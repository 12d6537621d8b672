/**
 * Node's file functions as promises, made from its callback API rather than taken from fs.promises: the first
 * use of fs.promises loads readline, the file watchers and directory handles with it (~0.8 ms of every CLI
 * call), none of which PALEE uses. Same calls, same answers and errors; realpath is the native one, as
 * fs.promises' is.
 */
import * as fs from "node:fs";
import { promisify } from "node:util";

export const access = promisify(fs.access);
export const copyFile = promisify(fs.copyFile);
export const link = promisify(fs.link);
export const lstat = promisify(fs.lstat);
export const mkdir = promisify(fs.mkdir);
export const readFile = promisify(fs.readFile);
export const readdir = promisify(fs.readdir);
export const realpath = promisify(fs.realpath.native);
export const rename = promisify(fs.rename);
export const rm = promisify(fs.rm);
export const stat = promisify(fs.stat);
export const unlink = promisify(fs.unlink);
export const writeFile = promisify(fs.writeFile);

const openFd = promisify(fs.open);
const fsync = promisify(fs.fsync);
const close = promisify(fs.close);

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
