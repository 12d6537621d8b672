/**
 * The `.base` file for a session folder (contract §4a): Obsidian Bases, documented at help.obsidian.md/bases
 * (syntax: filters, formulas, properties, views with sort, groupBy and summaries; functions). Bases came in
 * Obsidian 1.9; grouping and summaries, which every view here uses, in 1.10. Pure text; the plugin writes it
 * once, create-only.
 */

/** The first Obsidian version whose Bases can show this file (groupBy and summaries). */
export const BASES_MIN_VERSION = "1.10.0";

/** A text literal inside a Bases expression: double-quoted, backslashes and quotes escaped. */
function expressionString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A YAML single-quoted scalar (the only escape is a doubled quote); line breaks cannot occur in folder names. */
function yamlQuoted(text: string): string {
  return `'${text.replace(/[\r\n]+/g, " ").replace(/'/g, "''")}'`;
}

/**
 * A timestamp property as a Bases date, whichever type the vault gives the property: a date already when it
 * is typed as date or datetime; else its text ("2026-08-14T09:00:00+01:00", or the original tool's
 * "2026-08-09T13:19:29.192Z") cut to the recorded wall-clock time in the form date() documents
 * ("YYYY-MM-DD HH:mm:ss"). The recorded local day is then the day shown, as in the history view.
 */
function asDate(property: string): string {
  const id = `note.${property}`;
  return `if(${id}.isType("date"), ${id}, date(${id}.toString().replace("T", " ").slice(0, 19)))`;
}

/**
 * Minutes studied: duration_minutes where the note has it; the original tool's notes have none, so theirs is
 * ended_at − started_at (a date difference is in milliseconds), rounded as the core rounds it.
 */
const MINUTES = `if(note.duration_minutes.isType("number"), note.duration_minutes, ((${asDate("ended_at")} - ${asDate(
  "started_at",
)}) / 60000).round())`;

/** The header comment and the filter: confirmed notes of the sessions folder only. */
function filterSection(sessionsFolder: string): string {
  const folder = yamlQuoted(`file.folder == ${expressionString(sessionsFolder)}`);
  return `# PALEE Sessions: every confirmed study session. Needs Obsidian 1.10 or later (core plugin Bases,
# with grouping and summaries). Written once by the command "Create sessions base"; edit it freely, the
# plugin never rewrites it.
filters:
  and:
    - ${folder}
    - 'file.ext == "md"'
    - 'note.status == "completed"'
`;
}

const FORMULAS = `formulas:
  minutes: ${yamlQuoted(MINUTES)}
  hours: ${yamlQuoted(`(formula.minutes / 60).toFixed(2)`)}
  day: ${yamlQuoted(`${asDate("started_at")}.format("YYYY-MM-DD")`)}
  week: ${yamlQuoted(`${asDate("started_at")}.format("GGGG-[W]WW")`)}
`;

const PROPERTIES = `properties:
  note.topic_id:
    displayName: Topic
  note.started_at:
    displayName: Started
  note.outcome:
    displayName: Outcome
  formula.minutes:
    displayName: Minutes
  formula.hours:
    displayName: Hours
  formula.day:
    displayName: Day
  formula.week:
    displayName: Week
`;

/** What every view ends with: newest first, minutes summed (the original tool's notes included). */
const NEWEST_FIRST_SUMMED = `    sort:
      - property: note.started_at
        direction: DESC
    summaries:
      formula.minutes: Sum
`;

const VIEWS = `views:
  - type: table
    name: Sessions
    order:
      - file.name
      - note.topic_id
      - note.started_at
      - formula.minutes
      - formula.hours
      - note.outcome
${NEWEST_FIRST_SUMMED}  - type: table
    name: By topic
    groupBy:
      property: note.topic_id
      direction: ASC
    order:
      - file.name
      - formula.day
      - formula.minutes
      - formula.hours
${NEWEST_FIRST_SUMMED}  - type: table
    name: This week
    filters:
      and:
        - 'formula.week == today().format("GGGG-[W]WW")'
    order:
      - file.name
      - note.topic_id
      - formula.day
      - formula.minutes
${NEWEST_FIRST_SUMMED}`;

/**
 * Confirmed sessions of `sessionsFolder` (vault-relative, e.g. "palee/sessions"): drafts (status draft),
 * hot.md and index.md (another folder) stay out. "This week" is the ISO week of today, as the history view
 * counts it, compared through the recorded local day of started_at.
 */
export function renderSessionsBase(sessionsFolder: string): string {
  return filterSection(sessionsFolder) + FORMULAS + PROPERTIES + VIEWS;
}
