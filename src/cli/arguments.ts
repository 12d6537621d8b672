import { UsageError } from "../core/errors";

/**
 * The command line's own parser (not node:util parseArgs, which refuses a value that begins with "-").
 * A value-taking option always takes the next token as its value, whatever it looks like, so
 * `--summary "- borrowing rules"` works as Markdown bullets need (contract §5).
 */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
}

export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K]["type"] extends "string" ? string : boolean;
};

export interface ParsedArguments<O extends Record<string, OptionSpec>> {
  values: OptionValues<O>;
  positionals: string[];
}

/**
 * `--name value`, `--name=value`, `--flag`, `-f` (short flags may be grouped: `-ih`), and `--` (everything
 * after it is positional). An option given twice keeps its last value. Unknown options and a missing value
 * are usage errors (exit 2).
 */
export function parseArguments<O extends Record<string, OptionSpec>>(
  argv: readonly string[],
  options: O,
): ParsedArguments<O> {
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const byShort = new Map(
    Object.entries(options).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])),
  );
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (token.startsWith("--")) {
      const eq = token.indexOf("=");
      const name = token.slice(2, eq === -1 ? undefined : eq);
      const spec = Object.prototype.hasOwnProperty.call(options, name) ? options[name] : undefined;
      if (!spec) throw new UsageError(`unknown option --${name} (see palee session --help)`);
      if (spec.type === "boolean") {
        if (eq !== -1) throw new UsageError(`--${name} takes no value`);
        values[name] = true;
      } else if (eq !== -1) {
        values[name] = token.slice(eq + 1);
      } else {
        if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
        values[name] = argv[++i];
      }
    } else if (token.startsWith("-") && token.length > 1) {
      for (const letter of token.slice(1)) {
        const name = byShort.get(letter);
        if (name === undefined || options[name].type !== "boolean") {
          throw new UsageError(`unknown option -${letter} in "${token}" (see palee session --help)`);
        }
        values[name] = true;
      }
    } else {
      positionals.push(token);
    }
  }
  return { values: values as OptionValues<O>, positionals };
}
