// The order vitest starts test files in: the slowest first, by the times of the last quiet CI run
// (bench/results/ci-latest.json, written by scripts/test-report.ts), so that no long file starts
// last and runs alone while the other workers idle. Files it does not know yet (new ones) go
// first, in vitest's own order (its last results, else the largest first).
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const RESULTS = path.resolve(import.meta.dirname, '..', '..', 'bench', 'results', 'ci-latest.json');

function lastTimes(): Map<string, number> {
  try {
    const report = JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as {
      files?: { file: string; seconds: number; stage: string }[];
    };
    return new Map(
      (report.files ?? [])
        .filter((f) => f.stage === 'vitest (embedded)')
        .map((f) => [f.file, f.seconds]),
    );
  } catch {
    return new Map();
  }
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const times = lastTimes();
    if (times.size === 0) return base;
    const root = path.resolve(import.meta.dirname, '..', '..');
    const seconds = (spec: TestSpecification) =>
      times.get(path.relative(root, spec.moduleId).split(path.sep).join('/'));
    // Projects keep vitest's order (they run one after the other); files within one are sorted.
    const projects = [...new Set(base.map((spec) => spec.project.name))];
    return projects.flatMap((name) => {
      const own = base.filter((spec) => spec.project.name === name);
      const unknown = own.filter((spec) => seconds(spec) === undefined);
      const known = own
        .filter((spec) => seconds(spec) !== undefined)
        .sort((a, b) => seconds(b)! - seconds(a)!);
      return [...unknown, ...known];
    });
  }
}
