// The register of editions on the query cache (issue 26, issue 27): the list of numbered prints,
// one register per work (first data from editions.astro), and the owner's decision on a returned
// number — its answer is the register as it now stands; the list's counts, the works and the
// public pages (a number put back on sale is stock again) follow.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type {
  EditionEntry,
  EditionRegister,
  EditionSummary,
  ReturnedDecision,
  returnedDecisionSchema,
} from '../../schemas/admin-editions.ts';
import { adminFetch, adminKeys, useAdminMutation } from '../query.tsx';

export function useEditionList(initial: EditionSummary[]) {
  const [readAt] = useState(() => Date.now());
  return useQuery({
    queryKey: adminKeys.editions.list(),
    queryFn: async () =>
      (await adminFetch<{ editions: EditionSummary[] }>('GET', '/api/admin/editions')).editions,
    initialData: initial,
    initialDataUpdatedAt: readAt,
  });
}

export function useRegister(id: number | null, initial: EditionRegister | null) {
  const [readAt] = useState(() => Date.now());
  return useQuery({
    queryKey: adminKeys.editions.detail(id ?? 0),
    queryFn: async () =>
      (await adminFetch<{ register: EditionRegister }>('GET', `/api/admin/editions/${id}`))
        .register,
    enabled: id !== null,
    initialData: initial && initial.work.id === id ? initial : undefined,
    initialDataUpdatedAt: readAt,
    // Another work chosen: its register replaces this one when it is read, not before.
    placeholderData: keepPreviousData,
  });
}

export interface Decision {
  workId: number;
  entry: EditionEntry;
  decision: ReturnedDecision;
}

export function useDecide() {
  const client = useQueryClient();
  return useAdminMutation<{ register: EditionRegister }, Decision>({
    mutationFn: ({ workId, entry, decision }) =>
      adminFetch('POST', `/api/admin/editions/${workId}/numbers/${entry.number}`, {
        decision,
      } satisfies z.input<typeof returnedDecisionSchema>),
    invalidates: [adminKeys.editions.all, adminKeys.artworks.all, adminKeys.dashboard.all],
    // A number put back on sale is stock again on the work's page.
    publishes: true,
    onSuccess: ({ register }) => {
      client.setQueryData(adminKeys.editions.detail(register.work.id), register);
    },
  });
}
