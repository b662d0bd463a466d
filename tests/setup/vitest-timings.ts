// A vitest reporter writing each test file's time as the runner measured it (import, setup and
// every test and hook: `TestModule.diagnostic()`), its project and its counts, to
// $TEST_TIMINGS_DIR/vitest-<pass>.json. scripts/test-report.ts reads it for the table `npm test`
// and .ci/run print at the end (issue 23). Vitest's JSON reporter counts only the tests' own
// time, not a file's beforeAll — which is where a suite that starts a server spends it.
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTiming {
  file: string;
  project: string;
  seconds: number;
  tests: number;
  failed: number;
}

export default class TimingsReporter implements Reporter {
  private started = 0;

  onTestRunStart(): void {
    this.started = performance.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const dir = process.env['TEST_TIMINGS_DIR'];
    if (!dir) return;
    const files: FileTiming[] = modules.map((module) => {
      const d = module.diagnostic();
      const tests = [...module.children.allTests()];
      const failed = tests.filter((t) => t.result().state === 'failed').length;
      // A file whose beforeAll failed reports its tests as skipped: they count as failed here, or
      // the table would say "0 failed" for a red run.
      const suiteFailed = module.state() === 'failed' && failed === 0;
      return {
        file: path.relative(process.cwd(), module.moduleId),
        project: module.project.name,
        seconds: (d.prepareDuration + d.setupDuration + d.collectDuration + d.duration) / 1000,
        tests: suiteFailed
          ? Math.max(tests.length, 1)
          : tests.filter((t) => t.result().state !== 'skipped').length,
        failed: suiteFailed ? Math.max(tests.length, 1) : failed,
      };
    });
    fs.mkdirSync(dir, { recursive: true });
    const pass = process.env['TEST_PASS'] ?? 'embedded';
    fs.writeFileSync(
      path.join(dir, `vitest-${pass}.json`),
      JSON.stringify({ wallSeconds: (performance.now() - this.started) / 1000, files }, null, 2),
    );
  }
}
