/**
 * The CLI's standard streams (src/cli/std-streams.ts): text written to the descriptor itself, handed in order to
 * Node's stream once the descriptor would block; a reader that has gone ends the output quietly; any other
 * failure is heard. loaded-modules.test.ts: a plain call never makes the streams.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { directWriter } from "../../src/cli/std-streams";
import { tempFolders } from "../support/temp-folders";

const temp = tempFolders();

/** A stand-in for process.stdout that keeps what it is given. */
function keepingStream(): { stream: NodeJS.WriteStream; taken: () => Buffer } {
  const parts: Buffer[] = [];
  const stream = {
    on: () => stream,
    write: (chunk: string | Uint8Array) => parts.push(Buffer.from(chunk)) > 0,
  } as unknown as NodeJS.WriteStream;
  return { stream, taken: () => Buffer.concat(parts) };
}

/** A named pipe opened at both ends without blocking: its writer meets EAGAIN once the pipe is full. */
function nonBlockingPipe(): { reader: number; writer: number; close: () => void } {
  const fifo = path.join(temp("palee-std-"), "pipe");
  if (spawnSync("mkfifo", [fifo]).status !== 0) throw new Error("mkfifo is not available on this system");
  const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const writer = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  return { reader, writer, close: () => [reader, writer].forEach((fd) => fs.closeSync(fd)) };
}

function readAll(fd: number): Buffer {
  const parts: Buffer[] = [];
  const chunk = Buffer.alloc(65536);
  for (;;) {
    let n = 0;
    try {
      n = fs.readSync(fd, chunk);
    } catch (error) {
      if ((error as { code?: string }).code === "EAGAIN") break;
      throw error;
    }
    if (n === 0) break;
    parts.push(Buffer.from(chunk.subarray(0, n)));
  }
  return Buffer.concat(parts);
}

describe("directWriter", () => {
  it("writes to the descriptor, and hands the rest in order to the stream once it would block", () => {
    const pipe = nonBlockingPipe();
    try {
      const kept = keepingStream();
      let asked = 0;
      const failures: unknown[] = [];
      const { write, handed } = directWriter(
        pipe.writer,
        () => {
          asked += 1;
          return kept.stream;
        },
        (e) => failures.push(e),
      );
      const lines = Array.from({ length: 4000 }, (_, i) => `line ${i} — ${"é".repeat(i % 50)}\n`);
      write(lines[0]);
      expect(handed()).toBeNull(); // a pipe with room: the stream is never made
      expect(asked).toBe(0);
      for (const line of lines.slice(1)) write(line);
      expect(handed()).toBe(kept.stream); // more than a pipe holds (64 KiB on Linux)
      const text = Buffer.concat([readAll(pipe.reader), kept.taken()]).toString("utf8");
      expect(text).toBe(lines.join(""));
      expect(failures).toEqual([]);
    } finally {
      pipe.close();
    }
  });

  it("drops the rest quietly once the reader has gone, and reports any other failure", () => {
    const pipe = nonBlockingPipe();
    fs.closeSync(pipe.reader);
    const failures: unknown[] = [];
    const gone = directWriter(
      pipe.writer,
      () => keepingStream().stream,
      (e) => failures.push(e),
    );
    gone.write("one\n");
    gone.write("two\n");
    expect(failures).toEqual([]);
    fs.closeSync(pipe.writer);
    const closed = directWriter(
      pipe.writer,
      () => keepingStream().stream,
      (e) => failures.push(e),
    );
    closed.write("three\n");
    closed.write("four\n");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ code: "EBADF" });
  });
});
