// One order's detail in the query cache (issue 27): the detail dialog, the cancel and refund
// dialogs read the same entry, and a change puts the order as the server answered it there.
import { useQuery } from '@tanstack/react-query';
import type { OrderDetail } from '../../schemas/admin-orders.ts';
import { adminFetch, adminKeys } from '../query.tsx';

export function useOrderDetail(id: string) {
  return useQuery({
    queryKey: adminKeys.orders.detail(id),
    queryFn: async () =>
      (await adminFetch<{ order: OrderDetail }>('GET', `/api/admin/orders/${id}`)).order,
  });
}
