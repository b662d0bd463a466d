// Server state of the back office on TanStack Query (issue 27, CONVENTIONS 19): one query client
// per island, one key factory per resource, first data from the Astro page (`initialData`),
// invalidation after each change — a response to an older request never replaces a newer one,
// which the hand-kept "generation tickets" used to guarantee by hand.
//
//   export default withAdminQuery(function Orders(props) {
//     const list = useQuery({ queryKey: adminKeys.orders.list(query), queryFn: () =>
//       adminFetch<OrderList>('GET', `/api/admin/orders${searchOf(query)}`),
//       initialData: props.initial, placeholderData: keepPreviousData });
//     const ship = useAdminMutation({ mutationFn: …, invalidates: [adminKeys.orders.all] });
//   });
import {
  QueryClient,
  QueryClientProvider,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { UseMutationOptions, QueryKey } from '@tanstack/react-query';
import { useState, type ComponentType } from 'react';
import { adminCall, type AdminError } from './api.ts';
import { nudgePublish } from './publish-store.ts';

/** A failed admin call, thrown so the query cache sees it; `error` keeps code, message, fields. */
export class AdminCallError extends Error {
  readonly error: AdminError;
  constructor(error: AdminError) {
    super(error.message);
    this.error = error;
    this.name = 'AdminCallError';
  }
}

/** One JSON call that resolves with the data or throws an AdminCallError (re-authentication included). */
export async function adminFetch<T>(method: string, url: string, body?: unknown): Promise<T> {
  const result = await adminCall<T>(method, url, body);
  if (!result.ok) throw new AdminCallError(result.error);
  return result.data;
}

/** The owner-facing message of any error a query or mutation threw. */
export function errorMessage(error: unknown): string {
  if (error instanceof AdminCallError) return error.error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The French field errors the server named (`{ price: '…' }`), if any. */
export function errorFields(error: unknown): Record<string, string> {
  return error instanceof AdminCallError ? (error.error.fields ?? {}) : {};
}

const keys = <R extends string>(resource: R) => ({
  all: [resource] as const,
  list: (params: unknown = {}) => [resource, 'list', params] as const,
  detail: (id: string | number) => [resource, 'detail', id] as const,
});

/** The query keys of every resource the back office reads. */
export const adminKeys = {
  artworks: keys('artworks'),
  orders: keys('orders'),
  customers: keys('customers'),
  messages: keys('messages'),
  editions: keys('editions'),
  settings: keys('settings'),
  dashboard: keys('dashboard'),
  analytics: keys('analytics'),
  security: keys('security'),
};

function makeClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The first data comes from the page; a screen asks again when it is shown again or when
      // a change invalidates it, not on every focus of the window.
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  });
}

/** Wraps an island in its own query client (each Astro island is its own React root). */
export function withAdminQuery<P extends object>(Screen: ComponentType<P>): ComponentType<P> {
  function WithQuery(props: P) {
    const [client] = useState(makeClient);
    return (
      <QueryClientProvider client={client}>
        <Screen {...props} />
      </QueryClientProvider>
    );
  }
  WithQuery.displayName = `withAdminQuery(${Screen.displayName ?? Screen.name})`;
  return WithQuery;
}

type AdminMutationOptions<TData, TVariables> = UseMutationOptions<TData, Error, TVariables> & {
  /** The queries the change makes stale; invalidated once it succeeded. */
  invalidates?: readonly QueryKey[];
  /** The change may alter public pages: the publish pill asks for the status at once. */
  publishes?: boolean;
};

/** useMutation that invalidates what the change touched and nudges the publish pill. */
export function useAdminMutation<TData, TVariables = void>({
  invalidates = [],
  publishes = false,
  onSuccess,
  ...options
}: AdminMutationOptions<TData, TVariables>) {
  const client = useQueryClient();
  return useMutation<TData, Error, TVariables>({
    ...options,
    onSuccess: async (...args) => {
      if (publishes) nudgePublish();
      await Promise.all(invalidates.map((queryKey) => client.invalidateQueries({ queryKey })));
      await onSuccess?.(...args);
    },
  });
}
