import { load } from "js-yaml";

/** Parses a whole YAML document (tests only): the core's parser is for frontmatter. */
export function parseFrontmatterYaml(text: string): unknown {
  return load(text);
}
