// One customer on the query cache (issue 27): the detail read when 'Détails du client' opens (and
// again after a change), the JSON export (a file, so a plain download rather than adminFetch), and
// the erasure, after which every list that shows the customer or their orders is stale.
import { useQuery } from '@tanstack/react-query';
import type {
  CustomerDetailView,
  CustomerErase,
  EraseResult,
  EraseScheduled,
} from '../../schemas/admin-customers.ts';
import { adminFetch, adminKeys, useAdminMutation } from '../query.tsx';

export function useCustomerDetail(email: string) {
  return useQuery({
    queryKey: adminKeys.customers.detail(email),
    queryFn: () =>
      adminFetch<CustomerDetailView>(
        'GET',
        `/api/admin/customers/detail?${new URLSearchParams({ email })}`,
      ),
    // Opened again, the detail is read again (the history may have changed meanwhile).
    staleTime: 0,
  });
}

/** The file name the server gave (Content-Disposition), else one of our own. */
function fileName(response: Response, email: string): string {
  const given = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return given?.[1] ?? `donnees-client-${email}.json`;
}

/** Downloads everything held about the address; resolves with the file's name. */
async function downloadExport(email: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`/api/admin/customers/export?${new URLSearchParams({ email })}`, {
      credentials: 'same-origin',
    });
  } catch {
    throw new Error('serveur injoignable');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as {
      error?: { message?: string };
    } | null;
    throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  }
  const name = fileName(response, email);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

export function useExportCustomer(email: string) {
  return useAdminMutation<string>({ mutationFn: () => downloadExport(email) });
}

export function useEraseCustomer() {
  return useAdminMutation<EraseResult | EraseScheduled, CustomerErase>({
    mutationFn: (body) => adminFetch('POST', '/api/admin/customers/erase', body),
    // The customer leaves the list; their orders now carry the pseudonym; their messages are gone.
    invalidates: [
      adminKeys.customers.all,
      adminKeys.orders.all,
      adminKeys.messages.all,
      adminKeys.dashboard.all,
    ],
  });
}
