#!/usr/bin/env node
// Sums the mutation reports of several StrykerJS runs (`reports/mutation/mutation*.json`, one per
// MUTATION_RUN) into per-file scores, per-folder subtotals and one score over every file the runs
// cover: the whole-tree figure of docs/testing.md is this script over the runs listed there. When two
// reports hold the same file, the newer report (file time) counts. The score is Stryker's own
// `mutationScore`: (killed + timeout) / (killed + timeout + survived + no coverage); compile and
// runtime errors and ignored mutants are left out. A second score leaves out the survivors that
// docs/testing.md lists as equivalent in its machine-read table ("Equivalent mutants by location":
// file, line or line:column, mutator, replacement or `*`, reason); listed entries that match no surviving mutant are
// printed, since line numbers move. Files of src/core and src/replay that Stryker mutates but no
// report holds are listed, so a partial aggregate says so.
//
// Usage: node scripts/mutation-summary.mjs [--counts counts.json] [report.json ...]
//   (default reports: every reports/mutation/mutation*.json)
//   --counts: per-file counts of runs whose reports are not at hand (another clone, an earlier
//   session), `{ "src/replay/loadReplay.ts": { "killed": 153, "timeout": 7, "survived": 7,
//   "noCoverage": 2, "source": "run load2" } }`; a report holding the same file wins over them. An
//   entry may instead total a group of files (`"files": [...]`, keyed by a label in their folder, for
//   runs whose only record is one total); a report holding any file of the group drops the group.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = process.cwd();
const dir = join(root, 'reports', 'mutation');

function defaultReports() {
  try {
    return readdirSync(dir)
      .filter((f) => /^mutation.*\.json$/.test(f))
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

const args = process.argv.slice(2);
let countsPath = null;
const reportArgs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--counts') countsPath = args[++i];
  else reportArgs.push(args[i]);
}

const reports = (reportArgs.length > 0 ? reportArgs : defaultReports())
  .map((path) => ({ path, time: statSync(path).mtimeMs }))
  .sort((a, b) => a.time - b.time);
if (reports.length === 0 && countsPath === null) {
  console.error('no reports: run `npm run mutation` first (see docs/testing.md)');
  process.exit(1);
}

// ---- equivalents listed in docs/testing.md ----------------------------------------------------

/** Splits a markdown table row on the `|` that are not escaped (`\|` inside a cell). */
function cells(row) {
  const out = [];
  let cur = '';
  for (let i = 1; i < row.length; i++) {
    const ch = row[i];
    if (ch === '\\' && row[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (ch === '|') {
      out.push(cur.trim());
      cur = '';
    } else {
      cur += ch;
    }
  }
  return out;
}

const unquote = (s) => s.replace(/^`(.*)`$/s, '$1').trim();
const squash = (s) => s.replace(/\s+/g, ' ').trim();

/** The rows of the table under the heading "Equivalent mutants by location" of docs/testing.md. */
function listedEquivalents() {
  let text;
  try {
    text = readFileSync(join(root, 'docs', 'testing.md'), 'utf8');
  } catch {
    return [];
  }
  const out = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    if (/^#+ /.test(line)) inTable = /Equivalent mutants by location/i.test(line);
    if (!inTable || !line.startsWith('|') || /^\|\s*-/.test(line)) continue;
    const [file, at, mutator, replacement, reason] = cells(line);
    const [lineNo, column] = at.split(':').map(Number);
    if (!Number.isInteger(lineNo)) continue; // the header row
    out.push({
      file: `src/${unquote(file).replace(/^src\//, '')}`,
      line: lineNo,
      column: Number.isInteger(column) ? column : null,
      mutator: unquote(mutator),
      replacement: squash(unquote(replacement)),
      reason,
      used: 0,
    });
  }
  return out;
}

const equivalents = listedEquivalents();

function isListedEquivalent(file, m) {
  for (const e of equivalents) {
    if (e.file !== file || e.line !== m.location.start.line || e.mutator !== m.mutatorName) continue;
    if (e.column !== null && e.column !== m.location.start.column) continue;
    if (e.replacement !== '*' && e.replacement !== squash(m.replacement ?? '')) continue;
    e.used++;
    return true;
  }
  return false;
}

// ---- counts ------------------------------------------------------------------------------------

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const zero = () => ({ Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, equivalent: 0 });

function countMutants(file, mutants) {
  const c = zero();
  for (const m of mutants) {
    if (!DETECTED.has(m.status) && !UNDETECTED.has(m.status)) continue;
    c[m.status]++;
    if (m.status === 'Survived' && isListedEquivalent(file, m)) c.equivalent++;
  }
  return c;
}

/** Per file: counts and where they come from; reports override --counts, newer reports older ones. */
const files = new Map();
/** Files counted inside a group entry of --counts (a run whose report gave one total for several files). */
const grouped = new Set();
if (countsPath !== null) {
  const given = JSON.parse(readFileSync(countsPath, 'utf8'));
  for (const [name, v] of Object.entries(given)) {
    const c = zero();
    c.Killed = v.killed ?? 0;
    c.Timeout = v.timeout ?? 0;
    c.Survived = v.survived ?? 0;
    c.NoCoverage = v.noCoverage ?? 0;
    c.equivalent = v.equivalent ?? 0;
    files.set(name, { c, source: v.source ?? relative(root, countsPath), members: v.files });
    for (const f of v.files ?? []) grouped.add(f);
  }
}
for (const { path } of reports) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const [name, file] of Object.entries(report.files)) {
    const key = relative(root, join(report.projectRoot ?? root, name)).replaceAll('\\', '/');
    files.set(key, { mutants: file.mutants, source: relative(root, path) });
  }
}
for (const [key, f] of files) {
  if (f.members?.some((m) => files.get(m)?.mutants !== undefined)) {
    files.delete(key);
    for (const m of f.members) grouped.delete(m);
  }
}
for (const [key, f] of files) if (f.mutants) f.c = countMutants(key, f.mutants);

const pct = (num, den) => (den === 0 ? '—' : `${((100 * num) / den).toFixed(1)} %`);
function line(label, c, source) {
  const detected = c.Killed + c.Timeout;
  const valid = detected + c.Survived + c.NoCoverage;
  const eq = c.equivalent > 0 ? `${pct(detected, valid - c.equivalent)} (${c.equivalent})` : pct(detected, valid);
  return `| ${label} | ${valid} | ${c.Killed} | ${c.Timeout} | ${c.Survived} | ${c.NoCoverage} | ${pct(detected, valid)} | ${eq} |${source === undefined ? '' : ` ${source} |`}`;
}
const add = (t, c) => {
  for (const k of Object.keys(t)) t[k] += c[k];
};

const HEAD = '| mutants | killed | timeout | survived | no coverage | score | without equivalents (listed) |';
const rows = [...files.entries()].sort(([a], [b]) => a.localeCompare(b));
console.log(`| file ${HEAD} source |`);
console.log('|---|---|---|---|---|---|---|---|---|');
const folders = new Map();
const total = zero();
for (const [name, f] of rows) {
  add(total, f.c);
  const folder = dirname(name);
  if (!folders.has(folder)) folders.set(folder, { c: zero(), files: 0 });
  add(folders.get(folder).c, f.c);
  folders.get(folder).files++;
  console.log(line(name, f.c, f.source));
}
console.log(line(`**all ${rows.length} files**`, total, ''));

console.log(`\n| folder ${HEAD} files |`);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [name, f] of [...folders.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(line(name, f.c, String(f.files)));
}

/** Files Stryker mutates by default (stryker.config.mjs): src/core and src/replay, no tests, index.ts or generated kernel. */
function mutatedFiles(base) {
  const out = [];
  for (const e of readdirSync(join(root, base), { withFileTypes: true })) {
    const p = `${base}/${e.name}`;
    if (e.isDirectory()) {
      if (e.name !== '__tests__') out.push(...mutatedFiles(p));
    } else if (e.name.endsWith('.ts') && e.name !== 'index.ts' && p !== 'src/core/kernel/entityKernelWasm.ts') {
      out.push(p);
    }
  }
  return out;
}

const missing = [...mutatedFiles('src/core'), ...mutatedFiles('src/replay')]
  .filter((f) => !files.has(f) && !grouped.has(f))
  .sort();
if (missing.length > 0) console.log(`\nNot in any report (${missing.length}): ${missing.join(', ')}`);
const stale = equivalents.filter((e) => e.used === 0 && files.get(e.file)?.mutants !== undefined);
if (stale.length > 0) {
  console.log(
    `\nListed as equivalent but matching no surviving mutant of the reports (${stale.length}; moved lines?):`,
  );
  for (const e of stale)
    console.log(`  ${e.file}:${e.line}${e.column === null ? '' : `:${e.column}`} ${e.mutator} → ${e.replacement}`);
}
