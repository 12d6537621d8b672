/**
 * NodeStore's errors (node-store.ts): an unexpected file-system error names the vault path it concerns, and a
 * folder or file in the way is the user's to fix.
 */
import { statSync } from "node:fs";
import * as path from "node:path";
import { FileExistsError, PaleeError, UsageError, errorMessage } from "../core/errors";

export function isErrno(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}

/** Runs a file-system operation; its unexpected errors name the vault path they concern. */
export async function naming<T>(root: string, relative: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof PaleeError || error instanceof FileExistsError) throw error;
    throw withPath(root, relative, error);
  }
}

/**
 * A file-system error that names the vault path it concerns (Node's messages often do not). A folder where a
 * file belongs, or a file where a folder belongs, is the user's to fix: a usage error naming that path.
 */
export function withPath(root: string, relative: string, error: unknown): Error {
  if (isErrno(error, "EISDIR")) {
    return new UsageError(`${relative} is a folder, but a file belongs there: move it out of the way`);
  }
  // mkdir -p says EEXIST when a part of the path is a file.
  const mkdirHitFile = isErrno(error, "EEXIST") && (error as { syscall?: unknown }).syscall === "mkdir";
  if (isErrno(error, "ENOTDIR") || mkdirHitFile) {
    const file = blockingFile(root, relative);
    return new UsageError(`${file} is a file, but a folder belongs there: move it out of the way`);
  }
  const message = errorMessage(error);
  if (message.includes(relative) && error instanceof Error) return error;
  const wrapped = new Error(`${relative}: ${message}`);
  (wrapped as Error & { code?: unknown }).code = (error as { code?: unknown }).code;
  return wrapped;
}

/** The first part of `relative` (or itself) that exists and is not a folder: what made a path ENOTDIR. */
function blockingFile(root: string, relative: string): string {
  const parts = relative.split("/");
  for (let n = 1; n <= parts.length; n++) {
    try {
      if (!statSync(path.join(root, ...parts.slice(0, n))).isDirectory()) return parts.slice(0, n).join("/");
    } catch {
      break;
    }
  }
  return relative;
}
