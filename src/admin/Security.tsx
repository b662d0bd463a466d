// The account's security screen (issues 24, 27; docs/decisions/037): the second factor
// (security/TwoFactor.tsx) and inviting another administrator (security/InviteAdmin.tsx). The
// factor's state is on TanStack Query, first from the server (src/pages/admin/security.astro),
// read again after each change; forms are react-hook-form on the kernel's schemas.
import { useQuery } from '@tanstack/react-query';
import type { SecondFactorStatusView } from '../schemas/second-factor.ts';
import { adminFetch, adminKeys, withAdminQuery } from './query.tsx';
import InviteAdmin from './security/InviteAdmin.tsx';
import TwoFactor from './security/TwoFactor.tsx';
import { translator, type Texts } from './ui/kit.tsx';

interface Props {
  initial: SecondFactorStatusView;
  texts: Texts;
}

/** A base32 key in groups of four, as authenticator apps ask for it. */
export const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function Security({ initial, texts }: Props) {
  const t = translator(texts);
  const status = useQuery({
    queryKey: adminKeys.security.all,
    queryFn: () => adminFetch<SecondFactorStatusView>('GET', '/api/admin/second-factor'),
    initialData: initial,
  });
  return (
    <div className="max-w-3xl space-y-8">
      <TwoFactor t={t} status={status.data} />
      <InviteAdmin t={t} />
    </div>
  );
}

export default withAdminQuery(Security);
