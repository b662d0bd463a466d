// The endpoint helper every JSON endpoint is written with (docs/decisions/015): it reads the body
// (size-limited JSON), parses it with the endpoint's shared schema (src/schemas), answers field
// errors in the one format of src/schemas/fields.ts, and maps every thrown error through the one
// table of ./errors.ts. The same-origin check is the middleware's (src/middleware.ts), for all.
import type { APIContext, APIRoute } from 'astro';
import { fieldErrors, type Issue, type Schema } from '../../src/schemas/fields.ts';
import { AppError, errorResponse, readJson } from './errors.ts';

export const NO_STORE = { 'Cache-Control': 'no-store' } as const;

interface Common {
  /** Status of a non-Response result (default 200). */
  status?: number;
}

type Result = Response | object | null;

export interface BodyEndpoint<T> extends Common {
  schema: Schema<T>;
  /** Largest body accepted, in bytes (default 16 KiB). */
  maxBytes?: number;
  /** A more precise error than `invalid_input` for some failures (e.g. only the token is wrong). */
  invalid?: (issues: readonly Issue[]) => AppError | undefined;
  handler: (input: T, context: APIContext) => Promise<Result> | Result;
}

export interface PlainEndpoint extends Common {
  handler: (context: APIContext) => Promise<Result> | Result;
}

export function parseInput<T>(
  schema: Schema<T>,
  body: unknown,
  invalid?: (issues: readonly Issue[]) => AppError | undefined,
): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw (
    invalid?.(parsed.error.issues) ??
    new AppError('invalid_input', { fields: fieldErrors(parsed.error) })
  );
}

function respond(result: Result, status: number): Response {
  if (result instanceof Response) return result;
  return Response.json(result ?? { ok: true }, { status, headers: NO_STORE });
}

/** An endpoint with a JSON body checked by `schema`, or without a body. */
export function defineEndpoint<T>(options: BodyEndpoint<T>): APIRoute;
export function defineEndpoint(options: PlainEndpoint): APIRoute;
export function defineEndpoint<T>(options: BodyEndpoint<T> | PlainEndpoint): APIRoute {
  const status = options.status ?? 200;
  return async (context) => {
    try {
      if ('schema' in options) {
        const body = await readJson(context.request, options.maxBytes);
        const input = parseInput(options.schema, body, options.invalid);
        return respond(await options.handler(input, context), status);
      }
      return respond(await options.handler(context), status);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
