import { CORE_SCHEMA, dump, load } from "js-yaml";

/**
 * The YAML codec for frontmatter the fast reader (simple-yaml.ts) does not handle: js-yaml with the core
 * schema, so timestamps stay strings. The plugin bundle replaces this module with src/plugin/adapters/obsidian-yaml.ts
 * (Obsidian's own YAML, already in the app) to keep main.js small: see docs/adr/0003 and esbuild.config.mjs.
 * Both must throw on YAML that does not parse.
 */
export function parseYamlBlock(text: string): unknown {
  return load(text, { schema: CORE_SCHEMA });
}

/** A frontmatter block's YAML (without fences), ending with a newline. */
export function stringifyYamlBlock(fields: Record<string, unknown>): string {
  return dump(fields, { schema: CORE_SCHEMA, lineWidth: -1, noRefs: true });
}
