import { parseYaml, stringifyYaml } from "obsidian";
import { assertYamlTextBounded, assertYamlValueBounded } from "../../core/records/yaml-bounds";

/**
 * Replaces src/core/records/yaml.ts in main.js and in the plugin tests: Obsidian's own YAML instead of js-yaml
 * (docs/adr/0003-plugin-yaml.md). Timestamps stay text: any Date the parser makes is turned back into ISO 8601.
 * Bounded like the CLI's codec (yaml-bounds.ts, contract §3): the value is checked before datesAsText copies it.
 */
export function parseYamlBlock(text: string): unknown {
  assertYamlTextBounded(text);
  const value: unknown = parseYaml(text);
  assertYamlValueBounded(value);
  return datesAsText(value);
}

export function stringifyYamlBlock(fields: Record<string, unknown>): string {
  assertYamlValueBounded(fields);
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
