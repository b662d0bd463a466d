// A paged, filtered list of the back office on the query cache (issue 27, CONVENTIONS 19): the
// screen's query lives in the address (a reload or a shared link opens the same view), each query
// is its own cache key — so an answer to an older search can never replace a newer one — the page
// keeps showing the previous answer while the next is read (keepPreviousData), the first view is
// the one the Astro page read on the server, and a page past the end (the list shrank) becomes the
// last page the server answered with.
import { keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { adminFetch, errorMessage } from '../query.tsx';
import type { Texts } from './kit.tsx';

/** What the Astro page hands a list screen: the first view it read on the server. */
export interface ListScreenProps<Q, D> {
  /** The query the server read the first view for (from the address). */
  query: Q;
  /** That view; null when the server could not read it: the §8 error shows while the screen asks
   * again. */
  initial: D | null;
  /** Why the server could not read the first view ('' when it could). */
  initialError: string;
  texts: Texts;
}

interface Resource<Q extends { page: number }, D extends { page: number }> {
  /** The resource's key factory (`adminKeys.customers`). */
  keys: { list: (params: Q) => QueryKey };
  /** The list's endpoint without its query string ('/api/admin/customers'). */
  endpoint: string;
  /** The query string of a query ('' for the default view): the address and the endpoint's. */
  searchOf: (query: Q) => string;
  /** What the screen shows while it has no list: after a failure, the figures emptied rather than
   * left stale (§8). */
  empty: D;
}

export function usePagedList<Q extends { page: number }, D extends { page: number }>(
  { keys, endpoint, searchOf, empty }: Resource<Q, D>,
  { query: initialQuery, initial: initialData, initialError }: ListScreenProps<Q, D>,
) {
  const client = useQueryClient();
  const [query, setQuery] = useState(initialQuery);
  // When the server read the first view: it ages from there like any answer.
  const [readAt] = useState(() => Date.now());
  const search = searchOf(query);
  const list = useQuery({
    queryKey: keys.list(query),
    queryFn: () => adminFetch<D>('GET', `${endpoint}${search}`),
    initialData: search === searchOf(initialQuery) ? (initialData ?? undefined) : undefined,
    initialDataUpdatedAt: readAt,
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    const address = `${window.location.pathname}${search}`;
    if (address !== `${window.location.pathname}${window.location.search}`)
      window.history.replaceState(null, '', address);
  }, [search]);

  const answered = list.isPlaceholderData ? undefined : list.data;
  useEffect(() => {
    if (!answered || answered.page === query.page) return;
    // The answer is that of the last page: kept under its own key, then shown as such.
    client.setQueryData(keys.list({ ...query, page: answered.page }), answered);
    setQuery((q) => ({ ...q, page: answered.page }));
  }, [answered, query, keys, client]);

  // Until the screen's own request answers, the server's failure to read the first view.
  const failure = list.isError ? errorMessage(list.error) : list.data ? '' : initialError;
  const data = list.isError ? empty : (list.data ?? empty);
  /** The pager's move: the same query, another page. */
  const toPage = (page: number) => setQuery((q) => ({ ...q, page }));
  return { query, setQuery, toPage, list, failure, data, busy: list.isFetching };
}

/** A short pause while typing before the server is asked. */
const SEARCH_PAUSE_MS = 300;

/**
 * A list's search box: its text as typed, handed to the list's query (back on page 1) once the
 * typing pauses.
 */
export function useTypedSearch<Q extends { page: number; q: string }>(
  query: Q,
  setQuery: Dispatch<SetStateAction<Q>>,
): [string, (text: string) => void] {
  const [search, setSearch] = useState(query.q);
  useEffect(() => {
    if (search === query.q) return;
    const timer = window.setTimeout(
      () => setQuery((q) => (q.q === search ? q : { ...q, q: search, page: 1 })),
      SEARCH_PAUSE_MS,
    );
    return () => window.clearTimeout(timer);
  }, [search, query.q, setQuery]);
  return [search, setSearch];
}

/** A paged list with a search box (customers, orders): the list, and the box's text as typed. */
export function useSearchedList<Q extends { page: number; q: string }, D extends { page: number }>(
  resource: Resource<Q, D>,
  props: ListScreenProps<Q, D>,
) {
  const paged = usePagedList(resource, props);
  const [search, setSearch] = useTypedSearch(paged.query, paged.setQuery);
  return { ...paged, search, setSearch };
}
