// The register of editions (« Registre des tirages », issue 26, docs/decisions/045): pick a print,
// see every number of its edition with its state — free, held by a payment in progress, sold (to
// whom, when), returned, retired — then its EA and HC copies; decide on a returned number (sell it
// again under the same number, or retire it, after the kit's confirmation); export the register as
// CSV or PDF. Everything shown is computed by the server (api/editions/register.ts) and held in the
// query cache (./editions/query.ts); the first view comes from editions.astro.
import { useEffect, useState } from 'react';
import type {
  EditionEntry,
  EditionRegister,
  EditionSummary,
  ReturnedDecision,
} from '../schemas/admin-editions.ts';
import { RegisterHeading, RegisterList, RegisterTable } from './editions/Register.tsx';
import { useDecide, useEditionList, useRegister } from './editions/query.ts';
import { errorMessage, withAdminQuery } from './query.tsx';
import { confirmDialog } from './ui/confirm.tsx';
import {
  BUTTON,
  Banners,
  translator,
  type Banner,
  type Texts,
  type Translate,
  EmptyState,
} from './ui/kit.tsx';

interface Props {
  editions: EditionSummary[];
  /** The register shown first (null: no edition, or it could not be read). */
  initial: EditionRegister | null;
  initialError: string;
  texts: Texts;
}

/** The selector's text: what tells two prints of one title apart (issue 27 §6), then the sales. */
function optionText(t: Translate, e: EditionSummary): string {
  const details = [e.year, e.technique, e.dimensions].filter(Boolean).join(', ');
  return t('option', {
    work: details ? `${e.title} (${details})` : e.title,
    sold: e.sold,
    size: e.editionSize,
    archived: e.archived ? t('archived') : '',
  }).trim();
}

function Editions({ editions: initialList, initial, initialError, texts }: Props) {
  const t = translator(texts);
  const [id, setId] = useState<number | null>(initial?.work.id ?? null);
  const [notice, setNotice] = useState<Banner | null>(null);
  const list = useEditionList(initialList);
  const shown = useRegister(id, initial);
  const decide = useDecide();

  useEffect(() => {
    if (id !== null && shown.data?.work.id === id && !shown.isPlaceholderData)
      window.history.replaceState(null, '', `/admin/editions?id=${id}`);
  }, [id, shown.data, shown.isPlaceholderData]);

  async function onDecide(entry: EditionEntry, decision: ReturnedDecision) {
    const register = shown.data;
    if (!register || decide.isPending) return;
    if (
      decision === 'retire' &&
      !(await confirmDialog({
        title: t('confirmRetire', { label: entry.label }),
        message: t('confirmRetireText'),
        confirmLabel: t('retire'),
        cancelLabel: t('cancel'),
        tone: 'danger',
      }))
    )
      return;
    setNotice(null);
    decide.mutate(
      { workId: register.work.id, entry, decision },
      {
        onSuccess: () =>
          setNotice({
            tone: 'success',
            text: t(decision === 'release' ? 'released' : 'retired', { label: entry.label }),
          }),
      },
    );
  }

  const decideOn = (entry: EditionEntry, decision: ReturnedDecision) =>
    void onDecide(entry, decision);

  const editions = list.data;
  if (editions.length === 0) return <EmptyState title={t('empty')}>{t('emptyHint')}</EmptyState>;

  const register = shown.data;
  const work = register?.work;
  const failure = shown.isError
    ? errorMessage(shown.error)
    : decide.isError
      ? errorMessage(decide.error)
      : register
        ? ''
        : initialError;
  const banner: Banner | null = failure
    ? { tone: 'error', text: t('error', { message: failure }) }
    : notice;
  const busy = shown.isFetching || decide.isPending;
  const exportHref = (format: 'csv' | 'pdf') =>
    work ? `/api/admin/editions/${work.id}/export?format=${format}` : '#';

  return (
    <div className="space-y-5" aria-busy={busy || undefined}>
      <p className="max-w-3xl text-sm text-black/80">{t('intro')}</p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="block w-full min-w-0 sm:w-auto sm:max-w-full">
          <span className="block text-sm font-medium">{t('work')}</span>
          {/* As wide as its longest option (a title, its year, technique and size, then the sales),
              so no choice is cut; never wider than the screen. */}
          <select
            className="mt-1 min-h-11 w-full rounded border border-field bg-white px-3 sm:w-auto sm:max-w-full sm:min-w-[20rem]"
            value={id ?? ''}
            disabled={busy}
            onChange={(event) => {
              setNotice(null);
              decide.reset();
              setId(Number(event.currentTarget.value));
            }}
          >
            {editions.map((e) => (
              <option key={e.id} value={e.id}>
                {optionText(t, e)}
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
      {register && (
        <>
          <RegisterHeading t={t} register={register} />
          <RegisterTable t={t} register={register} busy={busy} onDecide={decideOn} />
          <RegisterList t={t} register={register} busy={busy} onDecide={decideOn} />
        </>
      )}
    </div>
  );
}

export default withAdminQuery(Editions);
