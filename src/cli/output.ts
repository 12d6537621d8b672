import { WarningCap } from "./describe";
import { jsonText, terminalSafe } from "./text";

/** What a CLI invocation talks to, and its one way of printing: text, one JSON document, warnings, errors. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** stdin and stdout are a terminal: a refusal that a question can resolve asks instead (end after a silence). */
  isTerminal?: boolean;
  /** Resolves once stdout has taken what was written (a long export waits here instead of buffering it all). */
  drained?: () => Promise<void>;
}

/** Exit status of a finished command: 0, or the code of the refusal. */
export type Outcome = 0 | 2;

export class Output {
  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
  ) {}
  doc(value: unknown): void {
    this.io.stdout(jsonText(value));
  }
  text(line: string): void {
    if (!this.json) this.io.stdout(`${line}\n`);
  }
  private readonly cap = new WarningCap();
  warn(line: string): void {
    const shown = this.cap.take(line);
    if (shown !== null) this.io.stderr(`warning: ${shown}\n`);
  }
  /** After the command: "and N more warnings" when the cap left some out (describe.ts WarningCap). */
  finish(): void {
    const rest = this.cap.rest();
    if (rest !== null) this.io.stderr(`warning: ${rest}\n`);
  }
  error(line: string): void {
    this.io.stderr(`palee: ${line}\n`);
  }
}

/**
 * The io a command gets: its stdout and stderr pass every text through terminalSafe (text.ts), so no control
 * sequence read from a note reaches the terminal, whichever command prints it (start, list, end, export to
 * stdout, warnings, errors). JSON documents are unchanged by it: jsonText leaves no control character raw.
 */
export function terminalIo(io: CliIo): CliIo {
  // Its other parts are io's own, asked only when used (a spread would make stdin: std-streams.ts).
  const safe: Partial<CliIo> = {
    stdout: (text) => io.stdout(terminalSafe(text)),
    stderr: (text) => io.stderr(terminalSafe(text)),
  };
  return Object.setPrototypeOf(safe, io) as CliIo;
}
