// What the publish pill says for each status of the queue (issue 27 §7): what is being published,
// when it should be live, and when it went live, in Paris time.
import { describe, expect, it } from 'vitest';
import fr from '../i18n/fr.json';
import { changesText, etaText, pillText, type PublishStatus } from './publish-pill.ts';

const texts = Object.fromEntries(
  Object.entries(fr)
    .filter(([key]) => key.startsWith('admin.publish.'))
    .map(([key, value]) => [key.slice('admin.publish.'.length), value]),
);

const building: PublishStatus = {
  state: 'building',
  lastError: null,
  lastSuccessAt: null,
  changes: [{ kind: 'work', title: "Vent d'Alentejo" }, { kind: 'settings' }],
  changeCount: 2,
  etaMs: 6000,
};

describe('the publish pill', () => {
  it('names what is being published and counts down to when it should be live', () => {
    expect(pillText(building, texts, 5400)).toEqual({
      text: "Publication : « Vent d'Alentejo » et réglages",
      eta: 'en ligne dans ~6 s',
      // The menu's copy follows its own 'Publication :'.
      short: "« Vent d'Alentejo » et réglages",
    });
    expect(pillText({ ...building, state: 'queued' }, texts, 900).eta).toBe(
      'en ligne dans un instant',
    );
  });

  it('lists several changes and sums up the ones it does not name', () => {
    expect(
      changesText(
        [
          { kind: 'work', title: 'Seuil' },
          { kind: 'order-of-works' },
          { kind: 'works', count: 3 },
          { kind: 'sales' },
        ],
        6,
        texts,
      ),
    ).toBe('« Seuil », ordre des œuvres, 3 œuvres, ventes et 2 autres');
    expect(changesText([{ kind: 'edition', title: 'Seuil' }], 1, texts)).toBe(
      'tirages de « Seuil »',
    );
    expect(changesText([{ kind: 'manual' }], 1, texts)).toBe('tout le site');
  });

  it('says when the last changes went live, in Paris time', () => {
    expect(
      pillText(
        {
          state: 'idle',
          lastError: null,
          lastSuccessAt: '2026-11-26T22:14:05.000Z',
          lastChanges: [{ kind: 'work', title: 'Seuil' }],
        },
        texts,
        null,
      ),
    ).toMatchObject({ text: 'En ligne à 23:14 : « Seuil »', eta: null });
    // Nothing published since the server started: the site is simply up to date.
    expect(
      pillText(
        { state: 'idle', lastError: null, lastSuccessAt: '2026-11-26T22:14:05.000Z' },
        texts,
        null,
      ).text,
    ).toBe('Site à jour');
  });

  it('falls back to the plain state when no change is named, and reports a failure', () => {
    expect(pillText({ ...building, changes: [], changeCount: 0 }, texts, null)).toMatchObject({
      text: 'Publication en cours…',
      eta: null,
    });
    expect(
      pillText(
        { state: 'failed', lastError: 'Could not resolve', lastSuccessAt: null },
        texts,
        null,
      ).text,
    ).toBe('La publication a échoué : Could not resolve');
  });

  it('rounds the estimate up to whole seconds', () => {
    expect(etaText(12_100, texts)).toBe('en ligne dans ~13 s');
    expect(etaText(0, texts)).toBe('en ligne dans un instant');
  });
});
