import { CORE_SCHEMA, dump, load } from "js-yaml";
import { parseSimpleFrontmatter } from "./simple-yaml";
import { assertYamlTextBounded, assertYamlValueBounded } from "./yaml-bounds";

/**
 * The YAML codec of the CLI: the fast reader (simple-yaml.ts) for exactly what this project writes, else
 * js-yaml with the core schema, so timestamps stay strings. The fast reader is for scans that parse every
 * note (the CLI reads files; the plugin reads frontmatter from Obsidian's metadata cache). The plugin bundle
 * replaces this module with src/plugin/adapters/obsidian-yaml.ts (Obsidian's own YAML, already in the app) to
 * keep main.js small: see docs/adr/0003 and esbuild.config.mjs.
 * Both must throw on YAML that does not parse, and both are bounded (yaml-bounds.ts, contract §3): a block
 * too large, or whose aliases expand too far, throws YamlBoundsError before anything walks it.
 */
export function parseYamlBlock(text: string): unknown {
  assertYamlTextBounded(text);
  const simple = parseSimpleFrontmatter(text); // flat and alias-free: nothing to expand
  if (simple !== null) return simple;
  const value: unknown = load(text, { schema: CORE_SCHEMA });
  assertYamlValueBounded(value);
  return value;
}

/** A frontmatter block's YAML (without fences), ending with a newline. Refuses what it could not bound. */
export function stringifyYamlBlock(fields: Record<string, unknown>): string {
  assertYamlValueBounded(fields); // noRefs writes a shared value out at each place: bounded first
  return dump(fields, { schema: CORE_SCHEMA, lineWidth: -1, noRefs: true });
}
