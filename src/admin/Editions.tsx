// The register of editions (« Registre des tirages », issue 26, docs/decisions/045): pick a print,
// see every number of its edition with its state — free, held by a payment in progress, sold (to
// whom, when), returned, retired — then its EA and HC copies; decide on a returned number (sell it
// again under the same number, or retire it); export the register as CSV or PDF. Everything shown
// is computed by the server (api/editions/register.ts); the first view comes from editions.astro.
import { useState } from 'react';
import type {
  EditionEntry,
  EditionRegister,
  EditionSummary,
  ReturnedDecision,
} from '../schemas/admin-editions.ts';
import { adminCall, announceChange } from './api.ts';
import { BUTTON, Banners, translator, type Banner, type Texts } from './ui/kit.tsx';

interface Props {
  editions: EditionSummary[];
  /** The register shown first (null: no edition, or it could not be read). */
  initial: EditionRegister | null;
  initialError: string;
  texts: Texts;
}

const BADGE: Record<EditionEntry['state'], string> = {
  free: 'border-black/20 bg-white text-black/80',
  held: 'border-amber-700 bg-amber-50 text-amber-950',
  sold: 'border-green-800 bg-green-50 text-green-950',
  returned: 'border-red-700 bg-red-50 text-red-950',
  retired: 'border-black/40 bg-black/5 text-black/80',
  ea: 'border-sky-800 bg-sky-50 text-sky-950',
  hc: 'border-sky-800 bg-sky-50 text-sky-950',
};

export default function Editions({ editions, initial, initialError, texts }: Props) {
  const t = translator(texts);
  const [register, setRegister] = useState<EditionRegister | null>(initial);
  const [banner, setBanner] = useState<Banner | null>(
    initialError ? { tone: 'error', text: t('error', { message: initialError }) } : null,
  );
  const [busy, setBusy] = useState(false);

  async function open(id: number) {
    setBusy(true);
    const result = await adminCall<{ register: EditionRegister }>(
      'GET',
      `/api/admin/editions/${id}`,
    );
    setBusy(false);
    if (!result.ok) {
      setBanner({ tone: 'error', text: t('error', { message: result.error.message }) });
      return;
    }
    setBanner(null);
    setRegister(result.data.register);
    window.history.replaceState(null, '', `/admin/editions?id=${id}`);
  }

  async function decide(entry: EditionEntry, decision: ReturnedDecision) {
    if (!register || busy) return;
    if (decision === 'retire' && !window.confirm(t('confirmRetire', { label: entry.label })))
      return;
    setBusy(true);
    const result = await adminCall<{ register: EditionRegister }>(
      'POST',
      `/api/admin/editions/${register.work.id}/numbers/${entry.number}`,
      { decision },
    );
    setBusy(false);
    if (!result.ok) {
      setBanner({ tone: 'error', text: t('error', { message: result.error.message }) });
      return;
    }
    setRegister(result.data.register);
    setBanner({
      tone: 'success',
      text: t(decision === 'release' ? 'released' : 'retired', { label: entry.label }),
    });
    announceChange();
  }

  if (editions.length === 0)
    return (
      <div className="rounded-lg border border-black/10 bg-white p-8 text-center">
        <p className="font-serif text-xl">{t('empty')}</p>
        <p className="mt-2 text-black/70">{t('emptyHint')}</p>
      </div>
    );

  const work = register?.work;
  const exportHref = (format: 'csv' | 'pdf') =>
    work ? `/api/admin/editions/${work.id}/export?format=${format}` : '#';

  return (
    <div className="space-y-5" aria-busy={busy || undefined}>
      <p className="max-w-3xl text-sm text-black/80">{t('intro')}</p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="block min-w-0 grow sm:grow-0">
          <span className="block text-sm font-medium">{t('work')}</span>
          <select
            className="mt-1 min-h-11 w-full rounded border border-black/20 bg-white px-3 sm:w-96"
            value={work?.id ?? ''}
            disabled={busy}
            onChange={(event) => void open(Number(event.currentTarget.value))}
          >
            {editions.map((e) => (
              <option key={e.id} value={e.id}>
                {t('option', {
                  title: e.title,
                  sold: e.sold,
                  size: e.editionSize,
                  archived: e.archived ? t('archived') : '',
                }).trim()}
              </option>
            ))}
          </select>
        </label>
        {work && (
          <div className="flex flex-wrap gap-2">
            <a className={BUTTON} href={exportHref('csv')} download data-export="csv">
              {t('exportCsv')}
            </a>
            <a className={BUTTON} href={exportHref('pdf')} download data-export="pdf">
              {t('exportPdf')}
            </a>
          </div>
        )}
      </div>
      <Banners banner={banner} />
      {register && work && (
        <>
          <div>
            <h2 className="font-serif text-2xl">{work.title}</h2>
            <p className="text-sm text-black/70">
              {t('summary', {
                size: work.editionSize,
                ea: work.ea,
                hc: work.hc,
                stock: work.stock,
              })}
            </p>
            <ul className="mt-3 flex flex-wrap gap-2 text-sm" aria-label={t('countsLabel')}>
              {(['sold', 'free', 'held', 'returned', 'retired'] as const).map((state) => (
                <li key={state} className={`rounded border px-2 py-1 ${BADGE[state]}`}>
                  {t(`count.${state}`, { count: register.counts[state] })}
                </li>
              ))}
            </ul>
          </div>
          <div
            className="overflow-x-auto rounded-lg border border-black/10 bg-white"
            role="region"
            aria-label={t('caption', { title: work.title })}
            tabIndex={0}
          >
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('caption', { title: work.title })}</caption>
              <thead className="border-b border-black/10 bg-black/[0.03]">
                <tr>
                  {['number', 'state', 'order', 'buyer', 'date', 'notes', 'actions'].map((key) => (
                    <th key={key} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                      {t(`col.${key}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {register.entries.map((entry) => (
                  <tr
                    key={`${entry.kind}-${entry.number}`}
                    data-number={entry.label}
                    className="border-b border-black/5 align-top last:border-0"
                  >
                    <th scope="row" className="px-3 py-2 font-mono whitespace-nowrap">
                      {entry.label}
                    </th>
                    <td className="px-3 py-2">
                      <span
                        className={`inline-block rounded border px-2 py-0.5 text-xs whitespace-nowrap ${BADGE[entry.state]}`}
                      >
                        {t(`state.${entry.state}`)}
                      </span>
                    </td>
                    <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">
                      {entry.orderNumber ?? ''}
                    </td>
                    <td className="max-w-[14rem] px-3 py-2">
                      {entry.buyer && <span className="block truncate">{entry.buyer}</span>}
                      {entry.email && (
                        <span className="block truncate text-xs text-black/70">{entry.email}</span>
                      )}
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap tabular-nums">{entry.soldDay}</td>
                    <td className="px-3 py-2 text-xs text-black/80">{entry.notes}</td>
                    <td className="px-3 py-1">
                      <div className="flex flex-wrap gap-2">
                        {entry.state === 'returned' && (
                          <button
                            type="button"
                            className={BUTTON}
                            disabled={busy}
                            aria-label={t('releaseLabel', { label: entry.label })}
                            onClick={() => void decide(entry, 'release')}
                          >
                            {t('release')}
                          </button>
                        )}
                        {(entry.state === 'returned' ||
                          (entry.state === 'free' && entry.returnedAt !== null)) && (
                          <button
                            type="button"
                            className={BUTTON}
                            disabled={busy}
                            aria-label={t('retireLabel', { label: entry.label })}
                            onClick={() => void decide(entry, 'retire')}
                          >
                            {t('retire')}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
