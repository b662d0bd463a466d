// Every change the works screen makes (back office §4, §5; issue 27), each one mutation through
// the query cache: the list is invalidated after it, the publish pill nudged, a toast says what
// happened, and confirmations use the kit's dialog (never window.confirm).
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRef } from 'react';
import type { AdminArtworkRow, Highlight } from '../../schemas/artworks.ts';
import { AdminCallError, adminFetch, adminKeys, useAdminMutation } from '../query.tsx';
import { confirmDialog, type ConfirmOptions } from '../ui/confirm.tsx';
import type { Translate } from '../ui/kit.tsx';
import type { Toast } from './toasts.tsx';

export interface WorkList {
  total: number;
  archived: number;
  artworks: AdminArtworkRow[];
}

interface Job {
  call: () => Promise<unknown>;
  success: string | ((data: unknown) => string);
  /** What the toast says when the server could not be reached. */
  fallback: string;
}

/** The control to focus again once the list has moved the work (issue 27 §6). */
export interface FocusTarget {
  id: number;
  control: 'up' | 'down' | 'menu' | 'grip';
}

const URL = '/api/admin/artworks';

/** What the toast says when a change failed: a conflict, the job's fallback offline, or the server's word. */
function failureText(t: Translate, fallback: string, error: unknown): string {
  const code = error instanceof AdminCallError ? error.error.code : 'network';
  return code === 'version_conflict'
    ? t('toast.conflict')
    : code === 'network'
      ? fallback
      : t('toast.error', { message: (error as AdminCallError).error.message });
}

export function useWorkActions(t: Translate, toast: (tone: Toast['tone'], text: string) => void) {
  const client = useQueryClient();
  const focusAfter = useRef<FocusTarget | null>(null);
  const failure = (fallback: string, error: unknown) =>
    toast('error', failureText(t, fallback, error));
  const run = useAdminMutation<unknown, Job>({
    mutationFn: (job) => job.call(),
    invalidates: [adminKeys.artworks.all],
    publishes: true,
    onSuccess: (data, job) =>
      toast('success', typeof job.success === 'function' ? job.success(data) : job.success),
    onError: (error, job) => {
      failure(job.fallback, error);
      void client.invalidateQueries({ queryKey: adminKeys.artworks.all });
    },
  });
  const go = (job: Job) => run.mutateAsync(job).catch(() => undefined);
  /** Asks first (the kit's dialog, 'Annuler' to back out), and only then runs the change. */
  const confirmed = (question: Omit<ConfirmOptions, 'cancelLabel'>, job: Job) =>
    confirmDialog({ ...question, cancelLabel: t('cancel') }).then((ok) =>
      ok ? go(job) : undefined,
    );
  const patch = (work: AdminArtworkRow, body: object) =>
    adminFetch('PATCH', `${URL}/${work.id}`, { version: work.version, ...body });
  const title = (work: AdminArtworkRow) => work.title.fr;

  return {
    busy: run.isPending,
    focusAfter,
    failure,
    toggleVisible: (work: AdminArtworkRow) =>
      go({
        call: () => patch(work, { isAvailable: !work.isAvailable }),
        success: work.isAvailable ? t('toast.hidden') : t('toast.shown'),
        fallback: t('toast.updateError'),
      }),
    markSold: (work: AdminArtworkRow) =>
      confirmed(
        {
          title: t('confirmSoldTitle'),
          message: t('confirmSold', { title: title(work) }),
          confirmLabel: t('markSold'),
        },
        {
          call: () => patch(work, { isSold: true }),
          success: t('toast.soldDone'),
          fallback: t('toast.updateError'),
        },
      ),
    move: (work: AdminArtworkRow, direction: 'up' | 'down', control: FocusTarget['control']) => {
      focusAfter.current = { id: work.id, control };
      return go({
        call: () => adminFetch('POST', `${URL}/${work.id}/move`, { direction }),
        success: t('toast.moved'),
        fallback: direction === 'up' ? t('toast.moveError') : t('toast.moveDown'),
      });
    },
    /** Drag and drop: the new order shows at once, then the server keeps it. */
    reorder(key: QueryKey, moved: AdminArtworkRow[], id: number) {
      client.setQueryData<WorkList>(key, (list) =>
        list ? { ...list, artworks: moved.map((w, i) => ({ ...w, position: i + 1 })) } : list,
      );
      focusAfter.current = { id, control: 'grip' };
      return go({
        call: () => adminFetch('POST', `${URL}/order`, { ids: moved.map((w) => w.id) }),
        success: t('toast.moved'),
        fallback: t('toast.moveError'),
      });
    },
    reset: () =>
      confirmed(
        // back office §5, verbatim.
        {
          title: t('confirmResetTitle'),
          message: t('confirmReset'),
          confirmLabel: t('confirmResetButton'),
        },
        {
          call: () => adminFetch('POST', `${URL}/order/reset`),
          success: t('toast.resetDone'),
          fallback: t('toast.resetError'),
        },
      ),
    remove: (work: AdminArtworkRow) =>
      confirmed(
        {
          title: t('confirmDeleteTitle'),
          message: t('confirmDelete', { title: title(work) }),
          confirmLabel: t('delete'),
          tone: 'danger',
        },
        {
          call: () => adminFetch<{ archived: boolean }>('DELETE', `${URL}/${work.id}`),
          success: (data) =>
            (data as { archived: boolean }).archived ? t('toast.archived') : t('toast.deleted'),
          fallback: t('toast.deleteError'),
        },
      ),
    async bulk(action: 'hide' | 'publish' | 'top' | 'bottom' | 'delete', ids: number[]) {
      if (action === 'delete') {
        const ok = await confirmDialog({
          title: t('confirmDeleteTitle'),
          message: t('confirmBulkDelete', { count: ids.length }),
          confirmLabel: t('delete'),
          cancelLabel: t('cancel'),
          tone: 'danger',
        });
        if (!ok) return false;
      }
      const move = action === 'top' || action === 'bottom';
      const body = move ? { action: 'move', ids, to: action } : { action, ids };
      await go({
        call: () => adminFetch('POST', `${URL}/bulk`, body),
        success: (data) => {
          const { changed, archived } = data as { changed: number; archived: number };
          return action === 'delete'
            ? t('toast.bulkDeleted', { deleted: changed, archived })
            : t('toast.bulkDone', { count: changed });
        },
        fallback: t('toast.updateError'),
      });
      return true;
    },
    restore: (work: AdminArtworkRow) =>
      go({
        call: () => adminFetch('POST', `${URL}/${work.id}/restore`),
        success: t('toast.restored'),
        fallback: t('toast.updateError'),
      }),
    highlight: (work: AdminArtworkRow, highlight: Highlight | null) =>
      go({
        call: () => adminFetch('POST', `${URL}/${work.id}/highlight`, { highlight }),
        success: t(
          highlight === 'hero'
            ? 'toast.hero'
            : highlight === 'featured'
              ? 'toast.featured'
              : 'toast.unhighlighted',
          { title: title(work) },
        ),
        fallback: t('toast.updateError'),
      }),
  };
}

export type WorkActions = ReturnType<typeof useWorkActions>;
