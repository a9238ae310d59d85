import { dbopsRuleIds } from '../config/rule-names';

/** What `-- squawk-ignore` / `-- dbops-ignore` comments of one file switch off. */
export interface Ignores {
  /** Rules off for the whole file; `all` for a bare `-- squawk-ignore-file`. */
  file: Set<string> | 'all';
  /** 1-based line of a line comment -> rules it switches off (`all` when it names none). */
  lines: Map<number, Set<string> | 'all'>;
}

// `-- squawk-ignore rule-a, rule-b -- why` or `/* squawk-ignore rule-a */`; dbops-ignore is the same.
const COMMENT = /(?:--|\/\*)\s*(?:squawk|dbops)-ignore(-file)?(?![\w-])([^\n]*)/g;

function ruleSet(text: string): Set<string> | 'all' {
  // A trailing `-- reason` or the end of a block comment closes the list.
  const list = text
    .replace(/\*\/.*$/, '')
    .split('--')[0]!
    .trim();
  if (list === '') return 'all';
  const out = new Set<string>();
  for (const name of list.split(',')) if (name.trim()) for (const id of dbopsRuleIds(name)) out.add(id);
  return out;
}

/** Reads the ignore comments of a file (squawk's syntax, squawk's rule names mapped to dbops's). */
export function readIgnores(sql: string): Ignores {
  const ignores: Ignores = { file: new Set(), lines: new Map() };
  if (!sql.includes('-ignore')) return ignores;
  let line = 1;
  let pos = 0;
  for (const m of sql.matchAll(COMMENT)) {
    for (let i = sql.indexOf('\n', pos); i >= 0 && i < m.index; i = sql.indexOf('\n', i + 1)) line++;
    pos = m.index;
    const rules = ruleSet(m[2] ?? '');
    if (m[1]) {
      if (rules === 'all' || ignores.file === 'all') ignores.file = 'all';
      else for (const r of rules) ignores.file.add(r);
    } else {
      const cur = ignores.lines.get(line);
      if (rules === 'all' || cur === 'all') ignores.lines.set(line, 'all');
      else ignores.lines.set(line, new Set([...(cur ?? []), ...rules]));
    }
  }
  return ignores;
}

/**
 * Whether a finding is switched off: by the file's comment, or by a line comment from the line
 * before the statement's first token to the statement's last line (squawk reads the line of
 * the flagged node and the one before it; dbops flags whole statements).
 */
export function isIgnored(ignores: Ignores, rule: string, fromLine: number, toLine: number): boolean {
  if (ignores.file === 'all' || ignores.file.has(rule)) return true;
  for (const [line, rules] of ignores.lines) if (line >= fromLine - 1 && line <= toLine && (rules === 'all' || rules.has(rule))) return true;
  return false;
}
