/**
 * The `.base` file for a session folder (contract §4a): Obsidian Bases, core plugin of Obsidian 1.9+, documented
 * at help.obsidian.md/bases/syntax (filters, formulas, properties, views with sort, groupBy and summaries).
 * Pure text; the plugin writes it once, create-only.
 */

/** A text literal inside a Bases expression: double-quoted, backslashes and quotes escaped. */
function expressionString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A YAML single-quoted scalar (the only escape is a doubled quote); line breaks cannot occur in folder names. */
function yamlQuoted(text: string): string {
  return `'${text.replace(/[\r\n]+/g, " ").replace(/'/g, "''")}'`;
}

/** The header comment and the filter: confirmed notes of the sessions folder only. */
function filterSection(sessionsFolder: string): string {
  const folder = yamlQuoted(`file.folder == ${expressionString(sessionsFolder)}`);
  return `# PALEE Sessions: every confirmed study session. Needs Obsidian 1.9 or later (core plugin Bases).
# Written once by the command "Create sessions base"; edit it freely, the plugin never rewrites it.
filters:
  and:
    - ${folder}
    - 'file.ext == "md"'
    - 'status == "completed"'
`;
}

const FORMULAS = `formulas:
  hours: '(duration_minutes / 60).toFixed(2)'
  day: 'date(started_at.slice(0, 10))'
  week: 'date(started_at.slice(0, 10)).format("GGGG-[W]WW")'
`;

const PROPERTIES = `properties:
  note.topic_id:
    displayName: Topic
  note.started_at:
    displayName: Started
  note.duration_minutes:
    displayName: Minutes
  note.outcome:
    displayName: Outcome
  formula.hours:
    displayName: Hours
  formula.day:
    displayName: Day
  formula.week:
    displayName: Week
`;

/** What every view ends with: newest first, minutes summed. */
const NEWEST_FIRST_SUMMED = `    sort:
      - property: started_at
        direction: DESC
    summaries:
      duration_minutes: Sum
`;

const VIEWS = `views:
  - type: table
    name: Sessions
    order:
      - file.name
      - topic_id
      - started_at
      - duration_minutes
      - formula.hours
      - outcome
${NEWEST_FIRST_SUMMED}  - type: table
    name: By topic
    groupBy:
      property: topic_id
      direction: ASC
    order:
      - file.name
      - formula.day
      - duration_minutes
      - formula.hours
${NEWEST_FIRST_SUMMED}  - type: table
    name: This week
    filters:
      and:
        - 'formula.week == today().format("GGGG-[W]WW")'
    order:
      - file.name
      - topic_id
      - formula.day
      - duration_minutes
${NEWEST_FIRST_SUMMED}`;

/**
 * Confirmed sessions of `sessionsFolder` (vault-relative, e.g. "palee/sessions"): drafts (status draft),
 * hot.md and index.md (another folder) stay out. "This week" is the ISO week of today, as the history view
 * counts it, compared through the recorded local day of started_at.
 */
export function renderSessionsBase(sessionsFolder: string): string {
  return filterSection(sessionsFolder) + FORMULAS + PROPERTIES + VIEWS;
}
