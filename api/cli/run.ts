// Shared frame for command-line entry points: known start-up problems print one clear line.
import { ConfigError } from '../config.ts';
import { DatabaseUnavailableError } from '../db/index.ts';
import { MigrationError } from '../db/migrate.ts';

export const EXPECTED_ERRORS = [ConfigError, DatabaseUnavailableError, MigrationError];

export function describeFailure(error: unknown): string {
  if (EXPECTED_ERRORS.some((kind) => error instanceof kind)) return (error as Error).message;
  return `Unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}

export async function runCli(name: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    console.error(`${name} failed: ${describeFailure(error)}`);
    process.exitCode = 1;
  }
}
