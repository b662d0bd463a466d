// A test that logs console.error fails (CONVENTIONS 9): errors are asserted, never just printed.
import { afterEach, beforeEach, vi } from 'vitest';
import { log, setLogSink } from '#api/log.ts';

let errors: unknown[][] = [];

// The server's logger (api/log.ts, docs/decisions/022) in tests: a line at `error` or above goes
// through console.error, so the guard below sees it and a test expecting one replaces the spy as
// before; lines below it are shown only when LOG_LEVEL asks for them (quiet by default).
if (!process.env['LOG_LEVEL']) log.level = 'error';
setLogSink({
  write: (line) => {
    const { level } = JSON.parse(line) as { level?: string };
    if (level === 'error' || level === 'fatal') console.error(line.trimEnd());
    else process.stdout.write(line);
  },
});

beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length > 0) {
    const text = errors.map((args) => args.map(String).join(' ')).join('\n');
    throw new Error(`console.error was called during the test:\n${text}`);
  }
});
