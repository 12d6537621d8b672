/**
 * The sessions base's formulas, evaluated (contract §4a Bases, version 3): a small evaluator of the part of
 * the Bases expression language the file uses (help.obsidian.md/bases: `if`, `date()`, `isType`, `toString`,
 * `replace`, `slice`, `format`, `round`, `toFixed`, `-`, `/`; a date minus a date is milliseconds). It is a
 * model of Bases, not Bases: it pins that the formulas give the recorded day and week whether `started_at`
 * is text or a date, and minutes for the original tool's notes, which have no `duration_minutes`.
 */
import { renderSessionsBase } from "../../../src/core/formats/bases";
import { isoWeekLabel, mondayOf } from "../../../src/core/time";
import { parseFrontmatterYaml } from "./yaml-support";

type Value = string | number | boolean | Date | null;
type Note = Record<string, Value>;

const DAY_MS = 86_400_000;
const pad = (n: number): string => String(n).padStart(2, "0");

/** moment-style format of a date in UTC (the tests run with TZ=UTC): the patterns the base uses. */
function format(date: Date, pattern: string): string {
  const day = Math.floor(date.getTime() / DAY_MS);
  const week = isoWeekLabel(mondayOf(day)); // "2026-W33"
  return pattern.replace(/\[([^\]]*)\]|GGGG|WW|YYYY|MM|DD/g, (token, literal?: string) => {
    if (literal !== undefined) return literal;
    if (token === "GGGG") return week.slice(0, 4);
    if (token === "WW") return week.slice(6);
    if (token === "YYYY") return String(date.getUTCFullYear());
    if (token === "MM") return pad(date.getUTCMonth() + 1);
    return pad(date.getUTCDate());
  });
}

/** date("YYYY-MM-DD HH:mm:ss"), the documented form, read as local time (UTC here). */
function parseDate(text: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) throw new Error(`date() cannot read ${JSON.stringify(text)}`);
  const [, y, mo, d, h = "0", mi = "0", s = "0"] = m;
  return new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
}

function method(target: Value, name: string, args: Value[]): Value {
  if (name === "isType") return args[0] === "date" ? target instanceof Date : typeof target === args[0];
  if (name === "toString") return target instanceof Date ? target.toISOString() : String(target);
  if (typeof target === "string" && name === "replace") return target.replace(String(args[0]), String(args[1]));
  if (typeof target === "string" && name === "slice") return target.slice(Number(args[0]), Number(args[1]));
  if (target instanceof Date && name === "format") return format(target, String(args[0]));
  if (typeof target === "number" && name === "round") return Math.round(target);
  if (typeof target === "number" && name === "toFixed") return target.toFixed(Number(args[0]));
  throw new Error(`no ${name}() on ${String(target)}`);
}

/** Evaluates one expression for a note; `formula.x` evaluates the base's formula x. */
function evaluate(expression: string, note: Note, formulas: Record<string, string>): Value {
  const tokens = expression.match(/"(?:[^"\\]|\\.)*"|\d+(?:\.\d+)?|[A-Za-z_][\w]*|[().,\-/]/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const take = (expected?: string): string => {
    const token = tokens[i++];
    if (expected !== undefined && token !== expected) throw new Error(`expected ${expected}, got ${token}`);
    return token;
  };
  const args = (): Value[] => {
    take("(");
    const list: Value[] = [];
    while (peek() !== ")") {
      list.push(sum());
      if (peek() === ",") take(",");
    }
    take(")");
    return list;
  };
  const primary = (): Value => {
    const token = take();
    if (token === "(") {
      const inner = sum();
      take(")");
      return inner;
    }
    if (token.startsWith('"')) return JSON.parse(token) as string;
    if (/^\d/.test(token)) return Number(token);
    if (token === "if") {
      const [condition, yes, no] = args();
      return condition ? yes : (no ?? null);
    }
    if (token === "date") return parseDate(String(args()[0]));
    if (token === "note" || token === "formula") {
      take(".");
      const name = take();
      return token === "note" ? (note[name] ?? null) : evaluate(formulas[name], note, formulas);
    }
    throw new Error(`unknown ${token}`);
  };
  const postfix = (): Value => {
    let value = primary();
    while (peek() === ".") {
      take(".");
      value = method(value, take(), args());
    }
    return value;
  };
  const numeric = (v: Value): number => (v instanceof Date ? v.getTime() : Number(v));
  const product = (): Value => {
    let value = postfix();
    while (peek() === "/") {
      take("/");
      value = numeric(value) / numeric(postfix());
    }
    return value;
  };
  const sum = (): Value => {
    let value = product();
    while (peek() === "-") {
      take("-");
      value = numeric(value) - numeric(product());
    }
    return value;
  };
  const result = sum();
  if (i !== tokens.length) throw new Error(`left over: ${tokens.slice(i).join(" ")}`);
  return result;
}

const formulas = (parseFrontmatterYaml(renderSessionsBase("palee/sessions")) as { formulas: Record<string, string> })
  .formulas;
const formula = (name: string, note: Note): Value => evaluate(formulas[name], note, formulas);

describe("the sessions base's formulas, evaluated", () => {
  // Saturday 15 August 2026 at 00:30 in the learner's zone (+02:00): 22:30 UTC the day before.
  const written: Note = {
    started_at: "2026-08-15T00:30:00+02:00",
    ended_at: "2026-08-15T01:15:00+02:00",
    duration_minutes: 40,
  };

  it("gives the recorded day and ISO week, and duration_minutes, for started_at as text", () => {
    expect(formula("day", written)).toBe("2026-08-15");
    expect(formula("week", written)).toBe("2026-W33");
    expect(formula("minutes", written)).toBe(40);
    expect(formula("hours", written)).toBe("0.67");
  });

  it("gives the same day and week when the vault types started_at as a date", () => {
    const typed: Note = { ...written, started_at: new Date(Date.UTC(2026, 7, 15, 0, 30)) };
    expect(formula("day", typed)).toBe("2026-08-15");
    expect(formula("week", typed)).toBe("2026-W33");
    expect(formula("minutes", typed)).toBe(40);
  });

  it("derives minutes for the original tool's notes, which have no duration_minutes", () => {
    const original: Note = { started_at: "2026-08-09T13:19:29.192Z", ended_at: "2026-08-09T14:04:29.192Z" };
    expect(formula("minutes", original)).toBe(45);
    expect(formula("hours", original)).toBe("0.75");
    expect(formula("day", original)).toBe("2026-08-09");
    expect(formula("week", original)).toBe("2026-W32");
  });

  it("derives them with both timestamps typed as dates too", () => {
    const typed: Note = {
      started_at: new Date(Date.UTC(2026, 7, 9, 13, 0)),
      ended_at: new Date(Date.UTC(2026, 7, 9, 13, 50)),
    };
    expect(formula("minutes", typed)).toBe(50);
  });
});
