// 'Détails du client' (back office §2, issue 13 points 7 and 8): identity, registration and last
// connection, purchase statistics, the order history (Commande, Date, Montant, Statut) or 'Aucune
// commande pour ce client' — read from the server on open (src/admin/customers/queries.ts); a
// failure says so and offers to try again instead of showing an empty history (§8's silent empty
// list is not kept). Then the customer's data requests (./DataRequests.tsx).
import { useRef } from 'react';
import type { EraseResult } from '../../schemas/admin-customers.ts';
import { errorMessage } from '../query.tsx';
import { BUTTON, type Translate } from '../ui/kit.tsx';
import Modal from '../ui/Modal.tsx';
import DataRequests from './DataRequests.tsx';
import { History, Identity, Purchases } from './DetailSections.tsx';
import { useCustomerDetail } from './queries.ts';

interface Props {
  email: string;
  t: Translate;
  onClose: () => void;
  onErased: (result: EraseResult) => void;
}

export default function CustomerDetail({ email, t, onClose, onErased }: Props) {
  const detail = useCustomerDetail(email);
  const modal = useRef<HTMLDialogElement | null>(null);
  const customer = detail.data;
  return (
    <Modal
      id="customer-detail"
      title={t('detail.title')}
      closeLabel={t('detail.close')}
      onClose={onClose}
      handle={modal}
      size="medium"
    >
      {customer ? (
        // Once shown, a failed re-read (the customer just erased) leaves the detail as it was.
        <div className="space-y-7">
          <Identity t={t} customer={customer} />
          <Purchases t={t} customer={customer} />
          <History t={t} customer={customer} />
          <DataRequests
            t={t}
            email={customer.email}
            onErased={(result) => {
              onErased(result);
              modal.current?.close();
            }}
          />
        </div>
      ) : detail.isError ? (
        <div
          role="alert"
          className="space-y-3 rounded border border-red-700 bg-red-50 p-4 text-sm text-red-950"
        >
          <p className="font-medium">
            {t('detail.loadError', { message: errorMessage(detail.error) })}
          </p>
          <button type="button" className={BUTTON} onClick={() => void detail.refetch()}>
            {t('detail.retry')}
          </button>
        </div>
      ) : (
        <p role="status" className="text-black/75">
          {t('detail.loading')}
        </p>
      )}
    </Modal>
  );
}
