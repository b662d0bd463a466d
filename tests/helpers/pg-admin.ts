// Helpers to create and drop throw-away PostgreSQL databases on DATABASE_URL's server
// (CREATE/DROP DATABASE run from a connection to DATABASE_URL's own database).

/** The URL of another database on the same server. */
export function databaseUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function quoteIdent(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Unsafe database name: ${name}`);
  return `"${name}"`;
}
