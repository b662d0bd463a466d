// Calls an endpoint as the server does: through the middleware (src/middleware.ts), which checks
// the origin of unsafe requests and reads the session for every endpoint.
import type { APIContext, APIRoute } from 'astro';
import { onRequest } from '../../src/middleware.ts';

export interface EndpointCall {
  request: Request;
  cookies?: Partial<APIContext['cookies']>;
  clientAddress?: string;
  params?: Record<string, string | undefined>;
}

export async function callEndpoint(route: APIRoute, call: EndpointCall): Promise<Response> {
  const context = {
    request: call.request,
    url: new URL(call.request.url),
    cookies: { get: () => undefined, set: () => {}, delete: () => {}, ...call.cookies },
    locals: {},
    clientAddress: call.clientAddress ?? '192.0.2.1',
    params: call.params ?? {},
    isPrerendered: false,
  } as unknown as APIContext;
  return (await onRequest(context as never, () => Promise.resolve(route(context)))) as Response;
}
