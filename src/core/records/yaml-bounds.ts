/**
 * The bounds of the YAML codecs (contract §3, version 3): a hostile frontmatter is `corrupt`, never a hang or a
 * crash. Both codecs (yaml.ts for the CLI, src/plugin/adapters/obsidian-yaml.ts for the plugin) check the text
 * before parsing and the parsed value before anything walks, copies or dumps it.
 *
 * - Size: a frontmatter block longer than MAX_FRONTMATTER_CHARS is not parsed. The tool writes a few hundred
 *   bytes; hand-edited properties stay far below this.
 * - Expansion: YAML aliases (`*a`) share one parsed value, so a 400-byte "billion laughs" parses in
 *   microseconds into 9^9 leaves that every later walk (a dump with noRefs, a copy) visits one by one. The
 *   value graph is walked once with a budget that counts a shared value at each visit (and so also stops
 *   on a cycle, `&a [*a]`): more than MAX_YAML_NODES values, or more than MAX_YAML_CHARS characters of keys
 *   and strings, is refused. Without aliases a block within the size limit never reaches either budget (a value
 *   takes at least one character of text, a character of text makes at most one character of string), so
 *   these budgets only ever refuse alias expansion.
 */

/** 64 KiB of frontmatter text. */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;
/** Values (mappings, lists, scalars), counting an aliased value at each place it appears. */
export const MAX_YAML_NODES = 100_000;
/** Characters of keys and strings, counting an aliased string at each place it appears. */
export const MAX_YAML_CHARS = 256 * 1024;

/** A frontmatter beyond the codec's bounds: classified `corrupt` with this message as the reason. */
export class YamlBoundsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "YamlBoundsError";
  }
}

/** Throws YamlBoundsError when the text of a frontmatter block is too long to be parsed. */
export function assertYamlTextBounded(text: string): void {
  if (text.length > MAX_FRONTMATTER_CHARS) {
    throw new YamlBoundsError(
      `frontmatter is too large (${text.length} characters, this version reads at most ${MAX_FRONTMATTER_CHARS})`,
    );
  }
}

/**
 * Throws YamlBoundsError when `value`, expanded (each alias counted where it appears), holds more than
 * MAX_YAML_NODES values or MAX_YAML_CHARS characters. Stops as soon as a budget is spent: at most
 * MAX_YAML_NODES steps, whatever the graph.
 */
export function assertYamlValueBounded(value: unknown): void {
  let nodes = 0;
  let chars = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    // The values visited and those waiting: the walk never holds more than the budget.
    if (++nodes + pending.length > MAX_YAML_NODES) throw expansion(`more than ${MAX_YAML_NODES} values`);
    if (typeof next === "string") chars += next.length;
    else if (Array.isArray(next)) for (let i = next.length - 1; i >= 0; i--) pending.push(next[i]);
    else if (next !== null && typeof next === "object" && !(next instanceof Date)) {
      for (const [key, item] of Object.entries(next)) {
        chars += key.length;
        pending.push(item);
      }
    }
    if (chars > MAX_YAML_CHARS) throw expansion(`more than ${MAX_YAML_CHARS} characters`);
  }
}

function expansion(what: string): YamlBoundsError {
  return new YamlBoundsError(`frontmatter expands to ${what} (YAML aliases repeat values; this version refuses that)`);
}
