import { CORE_SCHEMA, dump, load } from "js-yaml";
import { parseSimpleFrontmatter } from "./simple-yaml";

/**
 * The YAML codec of the CLI: the fast reader (simple-yaml.ts) for exactly what this project writes, else
 * js-yaml with the core schema, so timestamps stay strings. The fast reader is for scans that parse every
 * note (the CLI reads files; the plugin reads frontmatter from Obsidian's metadata cache). The plugin bundle
 * replaces this module with src/plugin/adapters/obsidian-yaml.ts (Obsidian's own YAML, already in the app) to
 * keep main.js small: see docs/adr/0003 and esbuild.config.mjs.
 * Both must throw on YAML that does not parse.
 */
export function parseYamlBlock(text: string): unknown {
  return parseSimpleFrontmatter(text) ?? load(text, { schema: CORE_SCHEMA });
}

/** A frontmatter block's YAML (without fences), ending with a newline. */
export function stringifyYamlBlock(fields: Record<string, unknown>): string {
  return dump(fields, { schema: CORE_SCHEMA, lineWidth: -1, noRefs: true });
}
