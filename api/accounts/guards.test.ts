import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.ts';
import { isGuardedAdminPath, requireAdmin, requireUser } from './guards.ts';
import type { SessionUser } from './sessions.ts';

const customer: SessionUser = {
  id: 'u1',
  email: 'a@example.test',
  name: 'A',
  role: 'customer',
  emailVerified: false,
};
const admin: SessionUser = { ...customer, id: 'u2', role: 'admin' };

function codeOf(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.code}`;
    throw error;
  }
}

describe('role guards', () => {
  it('requireUser refuses the signed-out with 401', () => {
    expect(codeOf(() => requireUser({ user: null }))).toBe('401 unauthorized');
    expect(codeOf(() => requireUser({}))).toBe('401 unauthorized');
    expect(requireUser({ user: customer })).toBe(customer);
  });

  it('requireAdmin refuses customers with 403', () => {
    expect(codeOf(() => requireAdmin({ user: null }))).toBe('401 unauthorized');
    expect(codeOf(() => requireAdmin({ user: customer }))).toBe('403 forbidden');
    expect(requireAdmin({ user: admin })).toBe(admin);
  });
});

describe('admin paths', () => {
  it.each([
    '/api/admin',
    '/api/admin/',
    '/api/admin/orders',
    '/API/Admin/orders',
    '//api//admin/orders',
    '/api/admin/%6Frders',
    '/api/%61dmin/orders',
    '/api/x/../admin/orders',
    '/api/admin/invitations/accept/../../orders',
    '/api/admin/invitations',
  ])('guards %s', (path) => {
    expect(isGuardedAdminPath(path)).toBe(true);
  });

  it.each([
    '/api/admin/invitations/accept',
    '/api/admin/invitations/accept/',
    '/api/administrators',
    '/api/cart',
    '/admin/',
    '/',
  ])('leaves %s to the endpoint', (path) => {
    expect(isGuardedAdminPath(path)).toBe(false);
  });
});
