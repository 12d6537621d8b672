/**
 * The process's standard streams as the CLI's io (output.ts CliIo), each made only when a call needs it: Node
 * builds process.stdout, process.stderr and process.stdin on first use, and for a pipe that loads its socket
 * code (net) on every call. So text is written to the file descriptor itself, synchronously, as Node
 * writes to a file or (on Linux) a pipe anyway; only a descriptor that would block (another program made it
 * non-blocking) hands the rest, in order, to Node's stream, which waits for it. stdin and "is a terminal" are
 * asked only by the commands that read stdin or may ask a question. Windows keeps Node's streams: its console
 * takes text through them, not as bytes.
 */
import { writeSync } from "node:fs";
import type { CliIo } from "./output";

type Failed = (error: unknown) => void;
const codeOf = (error: unknown): unknown => (error as { code?: unknown }).code;

/**
 * A standard stream's writer that never throws: once the reader has gone (EPIPE, as in `palee … | head -1`)
 * the rest of the output is dropped quietly and the exit code stays the operation's. Any other write error
 * (a full disk) is reported by `failed`, so the output is not lost in silence.
 */
function quietWriter(stream: NodeJS.WriteStream, failed: Failed): (text: string | Uint8Array) => void {
  let gone = false;
  stream.on("error", (error) => {
    gone = true;
    if (codeOf(error) !== "EPIPE") failed(error);
  });
  return (text) => {
    if (!gone) stream.write(text);
  };
}

/** A quietWriter that writes to the descriptor `fd` until it would block, then through `stream()`. */
export function directWriter(fd: number, stream: () => NodeJS.WriteStream, failed: Failed) {
  let gone = false;
  let handedTo: ((text: string | Uint8Array) => void) | null = null;
  const write = (text: string): void => {
    if (gone) return;
    if (handedTo !== null) return handedTo(text);
    const bytes = Buffer.from(text, "utf8");
    let at = 0;
    try {
      while (at < bytes.length) at += writeSync(fd, bytes, at);
    } catch (error) {
      if (codeOf(error) !== "EAGAIN") {
        gone = true;
        if (codeOf(error) !== "EPIPE") failed(error);
        return;
      }
      handedTo = quietWriter(stream(), failed);
      handedTo(bytes.subarray(at));
    }
  };
  return { write, handed: () => (handedTo === null ? null : stream()) };
}

/**
 * Resolves once `stream` has written what it buffered, or at once when it needs no wait; also when the reader
 * has gone (a closed pipe never drains), so a long export never waits forever.
 */
function drainedOf(stream: NodeJS.WriteStream | null): Promise<void> {
  return stream === null || stream.writableNeedDrain !== true || stream.destroyed
    ? Promise.resolve()
    : new Promise((resolve) => {
        const done = (): void => {
          stream.off("drain", done).off("close", done).off("error", done);
          resolve();
        };
        stream.once("drain", done).once("close", done).once("error", done);
      });
}

/** The io of this process's standard streams; `failed` hears of output that could not be written. */
export function processIo(failed: Failed, platform: NodeJS.Platform = process.platform): CliIo {
  const direct = platform !== "win32";
  const out = direct ? directWriter(1, () => process.stdout, failed) : null;
  const err = direct ? directWriter(2, () => process.stderr, failed) : null;
  return {
    stdout: out?.write ?? quietWriter(process.stdout, failed),
    stderr: err?.write ?? quietWriter(process.stderr, failed),
    drained: () => drainedOf(out === null ? process.stdout : out.handed()),
    get stdin() {
      return process.stdin;
    },
    get isTerminal() {
      return process.stdin.isTTY === true && process.stdout.isTTY === true;
    },
    env: process.env,
    cwd: process.cwd(),
  };
}
