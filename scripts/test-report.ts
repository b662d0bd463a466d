// Where the time of a test run went (issue 23): the wall time of each stage and the slowest test
// files, read from the runners' own reports in the timings folder ($TEST_TIMINGS_DIR, default
// .cache/timings): vitest's per-file times (tests/setup/vitest-timings.ts), Playwright's JSON
// reporter, and stages.json (each stage's wall time, written by scripts/test.ts and .ci/run).
//
//   node scripts/test-report.ts                       prints the table
//   node scripts/test-report.ts stage <name> <s> [ok]  records a stage run outside scripts/test.ts
//   node scripts/test-report.ts --json <file>          also writes the table as JSON
import fs from 'node:fs';
import path from 'node:path';

export const TIMINGS_DIR = path.resolve(process.env['TEST_TIMINGS_DIR'] ?? '.cache/timings');

export interface Stage {
  name: string;
  seconds: number;
  ok: boolean;
  /** The runner's count of tests that ran (vitest and Playwright stages). */
  passed?: number;
  failed?: number;
}

interface FileTime {
  file: string;
  seconds: number;
  stage: string;
}

const stagesFile = () => path.join(TIMINGS_DIR, 'stages.json');

export function readStages(): Stage[] {
  try {
    return JSON.parse(fs.readFileSync(stagesFile(), 'utf8')) as Stage[];
  } catch {
    return [];
  }
}

export function recordStage(stage: Stage): void {
  fs.mkdirSync(TIMINGS_DIR, { recursive: true });
  fs.writeFileSync(stagesFile(), JSON.stringify([...readStages(), stage], null, 2));
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(TIMINGS_DIR, file), 'utf8')) as T;
  } catch {
    return null;
  }
}

interface VitestTimings {
  files: { file: string; project: string; seconds: number; tests: number; failed: number }[];
}

interface PlaywrightSuite {
  file?: string;
  specs?: { tests: { results: { duration: number; status: string }[] }[] }[];
  suites?: PlaywrightSuite[];
}

interface PlaywrightReport {
  suites: PlaywrightSuite[];
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

/** A stage's counts and its files' times, from its runner's report (`vitest-<pass>.json`…). */
export function runnerReport(
  runner: 'vitest' | 'e2e',
  pass: string,
  stage: string,
): { passed: number; failed: number; files: FileTime[] } | null {
  if (runner === 'vitest') {
    const report = readJson<VitestTimings>(`vitest-${pass}.json`);
    if (!report) return null;
    return {
      passed: report.files.reduce((n, f) => n + f.tests - f.failed, 0),
      failed: report.files.reduce((n, f) => n + f.failed, 0),
      files: report.files.map((f) => ({ file: f.file, seconds: f.seconds, stage })),
    };
  }
  const report = readJson<PlaywrightReport>(`e2e-${pass}.json`);
  if (!report) return null;
  const perFile = new Map<string, number>();
  const walk = (suite: PlaywrightSuite, file: string | undefined) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results)
          perFile.set(here!, (perFile.get(here!) ?? 0) + result.duration / 1000);
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites) walk(suite, undefined);
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected,
    files: [...perFile].map(([file, seconds]) => ({
      file: path.join('tests/e2e', file),
      seconds,
      stage,
    })),
  };
}

export interface Report {
  stages: Stage[];
  totalSeconds: number;
  slowest: FileTime[];
  /** Every test file's time (tests/setup/sequencer.ts starts the slowest first). */
  files: FileTime[];
}

export function buildReport(): Report {
  const stages = readStages();
  const files: FileTime[] = [];
  for (const [runner, pass, stage] of [
    ['vitest', 'embedded', 'vitest (embedded)'],
    ['e2e', 'embedded', 'e2e (embedded)'],
    ['vitest', 'postgres', 'vitest (PostgreSQL)'],
    ['e2e', 'postgres', 'e2e (PostgreSQL)'],
  ] as const)
    files.push(...(runnerReport(runner, pass, stage)?.files ?? []));
  files.sort((a, b) => b.seconds - a.seconds);
  return {
    stages,
    totalSeconds: stages.reduce((s, st) => s + st.seconds, 0),
    slowest: files.slice(0, 15),
    files: files.map((f) => ({ ...f, seconds: Math.round(f.seconds * 10) / 10 })),
  };
}

const secs = (s: number) => `${Math.round(s)} s`;

export function printReport(report: Report = buildReport()): void {
  const lines: string[] = [];
  lines.push('', `Where the time went (${path.relative(process.cwd(), TIMINGS_DIR) || '.'})`, '');
  const rows: [string, string, string][] = [];
  const pg = report.stages.filter((s) => s.name.includes('PostgreSQL'));
  for (const stage of report.stages) {
    if (stage === pg[0] && pg.length > 1)
      rows.push(['PostgreSQL pass', secs(pg.reduce((s, st) => s + st.seconds, 0)), '']);
    const counts =
      stage.passed === undefined
        ? ''
        : `${stage.passed} passed${stage.failed ? `, ${stage.failed} failed` : ''}`;
    rows.push([
      `${pg.length > 1 && pg.includes(stage) ? '  ' : ''}${stage.name}${stage.ok ? '' : ' (FAILED)'}`,
      secs(stage.seconds),
      counts,
    ]);
  }
  rows.push(['total', secs(report.totalSeconds), '']);
  const w = Math.max(...rows.map((r) => r[0].length), 5);
  lines.push(`  ${'stage'.padEnd(w)}  ${'wall'.padStart(7)}  tests`);
  for (const [name, wall, counts] of rows)
    lines.push(`  ${name.padEnd(w)}  ${wall.padStart(7)}  ${counts}`.trimEnd());
  lines.push('', `  ${report.slowest.length} slowest test files`);
  const fw = Math.max(...report.slowest.map((f) => f.file.length), 4);
  for (const f of report.slowest)
    lines.push(`  ${f.file.padEnd(fw)}  ${f.seconds.toFixed(1).padStart(7)} s  ${f.stage}`);
  console.log(lines.join('\n'));
}

if (import.meta.main) {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'stage') {
    const [name, seconds, ok] = args;
    recordStage({ name: name!, seconds: Number(seconds), ok: ok !== 'failed' });
  } else {
    const report = buildReport();
    printReport(report);
    const at = process.argv.indexOf('--json');
    if (at > 0) fs.writeFileSync(process.argv[at + 1]!, `${JSON.stringify(report, null, 2)}\n`);
  }
}
