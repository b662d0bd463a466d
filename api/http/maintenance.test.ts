// What stays open while the shop is in maintenance (api/http/maintenance.ts).
import { describe, expect, it } from 'vitest';
import { isOpenDuringMaintenance } from './maintenance.ts';

describe('maintenance', () => {
  it('keeps the back office, sign-in, the webhook and the withdrawal function open', () => {
    for (const path of [
      '/admin/settings',
      '/api/admin/settings',
      '/api/auth/login',
      '/api/stripe/webhook',
      '/retractation',
      '/en/withdrawal',
      '/api/withdrawal',
    ])
      expect(isOpenDuringMaintenance(path), path).toBe(true);
  });

  it('closes the shop itself', () => {
    for (const path of [
      '/',
      '/gallery',
      '/en/cart',
      '/api/cart',
      '/api/checkout',
      '/retractation/x',
    ])
      expect(isOpenDuringMaintenance(path), path).toBe(false);
  });
});
