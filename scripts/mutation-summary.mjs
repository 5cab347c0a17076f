#!/usr/bin/env node
// Sums the mutation reports of several StrykerJS runs (`reports/mutation/mutation*.json`, one per
// MUTATION_RUN) into per-file scores and one score over every file the runs cover. When two reports
// hold the same file, the newer report (file time) counts. The score is Stryker's own
// `mutationScore`: (killed + timeout) / (killed + timeout + survived + no coverage); compile and
// runtime errors and ignored mutants are left out. Files of src/core and src/replay that Stryker
// mutates but no report holds are listed, so a partial aggregate says so.
//
// Usage: node scripts/mutation-summary.mjs [report.json ...]   (default: every reports/mutation/mutation*.json)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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

const reports = (process.argv.length > 2 ? process.argv.slice(2) : defaultReports())
  .map((path) => ({ path, time: statSync(path).mtimeMs }))
  .sort((a, b) => a.time - b.time);
if (reports.length === 0) {
  console.error('no reports: run `npm run mutation` first (see docs/testing.md)');
  process.exit(1);
}

/** The newest report's mutants per file. */
const files = new Map();
for (const { path, time } of reports) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const [name, file] of Object.entries(report.files)) {
    const key = relative(root, join(report.projectRoot ?? root, name)).replaceAll('\\', '/');
    files.set(key, { mutants: file.mutants, report: relative(root, path), time });
  }
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
function count(mutants) {
  const c = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0 };
  for (const m of mutants) {
    if (DETECTED.has(m.status) || UNDETECTED.has(m.status)) c[m.status]++;
    else c.other++;
  }
  const detected = c.Killed + c.Timeout;
  const valid = detected + c.Survived + c.NoCoverage;
  return { ...c, detected, valid, score: valid === 0 ? Number.NaN : (100 * detected) / valid };
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

const pct = (x) => (Number.isNaN(x) ? '—' : `${x.toFixed(1)} %`);
const rows = [...files.entries()].sort(([a], [b]) => a.localeCompare(b));
const total = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0, detected: 0, valid: 0 };
console.log('| file | mutants | killed | timeout | survived | no coverage | score | report |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, f] of rows) {
  const c = count(f.mutants);
  for (const k of Object.keys(total)) total[k] += c[k];
  console.log(
    `| ${name} | ${c.valid} | ${c.Killed} | ${c.Timeout} | ${c.Survived} | ${c.NoCoverage} | ${pct(c.score)} | ${f.report} |`,
  );
}
console.log(
  `| **all ${rows.length} files** | ${total.valid} | ${total.Killed} | ${total.Timeout} | ${total.Survived} | ${total.NoCoverage} | **${pct((100 * total.detected) / total.valid)}** | |`,
);
const missing = [...mutatedFiles('src/core'), ...mutatedFiles('src/replay')].filter((f) => !files.has(f)).sort();
if (missing.length > 0) console.log(`\nNot in any report (${missing.length}): ${missing.join(', ')}`);
