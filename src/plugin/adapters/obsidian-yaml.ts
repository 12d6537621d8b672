import { parseYaml, stringifyYaml } from "obsidian";

/**
 * Replaces src/core/yaml.ts in main.js (esbuild.config.mjs; the plugin tests map it the same way): the
 * frontmatter the fast reader does not handle is parsed by Obsidian's own YAML, which the app already
 * ships, instead of bundling js-yaml (40 KB of main.js). Timestamps must stay text (SPEC §2): should the
 * parser produce Date objects, they are turned back into ISO 8601 strings.
 */
export function parseYamlBlock(text: string): unknown {
  return datesAsText(parseYaml(text));
}

export function stringifyYamlBlock(fields: Record<string, unknown>): string {
  const yaml = stringifyYaml(fields);
  return yaml.endsWith("\n") ? yaml : `${yaml}\n`;
}

function datesAsText(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (Array.isArray(value)) return value.map(datesAsText);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, datesAsText(v)]));
  }
  return value;
}
