// When an original another buyer's checkout holds can be tried again (issue 25 §9): the hold's
// end in Paris time, then — once hydrated, so server and browser render the same text — how many
// minutes that is from now, kept current. Cart and checkout both show it under the line.
import { useEffect, useState } from 'react';
import type { Translate } from './translate.ts';
import type { Locale } from './types.ts';

/** The hold's end as the gallery's clock reads it (the same on server and browser). */
export function holdTime(locale: Locale, iso: string): string {
  return new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/Paris',
  }).format(new Date(iso));
}

/** Whole minutes left until `iso`, rounded up (0 once passed). */
export function minutesUntil(iso: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(iso) - now) / 60_000));
}

/** "… available again by 16:47 (Paris time) at the latest. Try again in 23 min." */
export function holdText(t: Translate, locale: Locale, iso: string, now: number | null): string {
  const until = t('hold.until', { time: holdTime(locale, iso) });
  if (now === null) return until;
  const minutes = minutesUntil(iso, now);
  return `${until} ${minutes > 0 ? t('hold.in', { minutes }) : t('hold.now')}`;
}

/** The current time, once hydrated (null while server-rendered), ticking every 20 s. */
export function useNow(): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 20_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function HoldNotice({
  until,
  locale,
  t,
  className = '',
}: {
  until: string;
  locale: Locale;
  t: Translate;
  className?: string;
}) {
  const now = useNow();
  return (
    <p
      data-hold-notice
      className={`rounded border border-amber-700/40 bg-amber-50 p-3 text-sm text-amber-950 ${className}`}
    >
      <strong className="font-semibold">{t('hold.title')}</strong> {holdText(t, locale, until, now)}
    </p>
  );
}
