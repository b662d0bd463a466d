// A work's page as a collector reads it before paying (issue 25, parts 5 and 7), on the built shop
// at 1366 and 390 px: dimensions in inches beside centimetres, the collector details (signature,
// frame, shipping note by size; a print's edition and support) and "Voir à l'échelle" opened by
// keyboard on a large painting and on a small sculpture — drawn to scale (the figure and the work
// measured against each other on screen), described for screen readers, axe 0, screenshots.
// Works read here, never bought: vent-d-alentejo (200 × 150 cm) and seuil (a 68 × 42 cm bronze).
import { expect, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations, preparePage, test } from './helpers.ts';
import { expectLooksRight, settle } from './look.ts';

const SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const SHOT = { animations: 'disabled', maskColor: '#d9d4cc', threshold: 0.25 } as const;

/** The page's checks as visual.spec.ts makes them, then a screenshot of one part of it. */
async function looksRight(page: Page, part: Locator, name: string): Promise<void> {
  await settle(page);
  await expectLooksRight(page);
  await expectNoAxeViolations(page);
  await expect(part).toHaveScreenshot(`${name}.png`, {
    ...SHOT,
    mask: [part.locator('img')],
    maxDiffPixelRatio: 0.02,
  });
}

/** Opens the scale view from the keyboard, as a screen-reader user would. */
async function openScale(page: Page, label: string): Promise<Locator> {
  const summary = page.locator('[data-scale-view] summary');
  await expect(summary).toHaveText(label);
  await summary.focus();
  await page.keyboard.press('Enter');
  const view = page.locator('[data-scale-view]');
  await expect(view).toHaveAttribute('open', '');
  return view;
}

/** The on-screen height of a figure's 170-cm person and of the work, in pixels. */
async function drawnHeights(figure: Locator): Promise<{ person: number; work: number }> {
  const person = await figure.locator('g').boundingBox();
  const work = await figure.locator('foreignObject').boundingBox();
  expect(person && work).toBeTruthy();
  return { person: person!.height, work: work!.height };
}

for (const size of SIZES) {
  test.describe(`${size.name} (${size.width} px)`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a large painting: collector details, inches, and the scale view', async ({ page }) => {
      const errors = await preparePage(page);
      await page.goto('/oeuvres/vent-d-alentejo');
      await expect(page.locator('[data-artist]')).toContainText('Sasha Kovač');
      await expect(page.getByText('200 x 150 cm (78,7 × 59,1\u00a0in)').first()).toBeVisible();

      const original = page.locator('[data-collector-details="original"]');
      await expect(original.locator('dt')).toHaveText(['Signature', 'Encadrement', 'Expédition']);
      await expect(original.locator('dd')).toHaveText([
        'Signée en bas à droite ; titrée, datée et signée au dos',
        'Non encadrée',
        /^Caisse en bois sur mesure et transporteur spécialisé/,
      ]);
      const print = page.locator('[data-collector-details="print"]');
      await expect(print.locator('dd')).toHaveText([
        'Limitée à 50 exemplaires, numérotés et signés à la main',
        'Toile de coton, sans cadre',
      ]);
      await looksRight(
        page,
        page.locator('[data-variant-block][data-type="original"]'),
        `collector-original-${size.width}`,
      );

      const view = await openScale(page, "Voir à l'échelle");
      const figures = view.getByRole('img');
      await expect(figures).toHaveCount(2);
      await expect(figures.first()).toHaveAccessibleName(
        'Œuvre originale, 200 × 150\u00a0cm (78,7 × 59,1\u00a0in), à l’échelle à côté d’une silhouette de 170\u00a0cm',
      );
      // To scale: the 170-cm figure and the 200-cm canvas, and the 100-cm print on a wall as big.
      const large = await drawnHeights(figures.nth(0));
      expect(large.work / large.person).toBeCloseTo(200 / 170, 1);
      const small = await drawnHeights(figures.nth(1));
      expect(small.work / small.person).toBeCloseTo(100 / 170, 1);
      expect(small.person).toBeCloseTo(large.person, 0);
      await looksRight(page, view, `scale-large-${size.width}`);
      expect(errors).toEqual([]);
    });

    test('a small sculpture, in English: on a plinth, beside the figure', async ({ page }) => {
      const errors = await preparePage(page);
      await page.goto('/en/works/seuil');
      await expect(page.getByText('68 x 42 cm (26.8 × 16.5\u00a0in)').first()).toBeVisible();
      const original = page.locator('[data-collector-details="original"]');
      // A bronze: no frame to speak of, so no such row; 68 cm is a medium work.
      await expect(original.locator('dt')).toHaveText(['Signature', 'Shipping']);
      await expect(original.locator('dd')).toHaveText([
        'Signed and numbered on the base, founder’s stamp',
        /^Ships within 5 to 7 working days in a wooden crate/,
      ]);

      const view = await openScale(page, 'View at scale');
      const figures = view.getByRole('img');
      await expect(figures.first()).toHaveAccessibleName(
        'Original artwork, 68 × 42\u00a0cm (26.8 × 16.5\u00a0in), to scale on a 90\u00a0cm plinth beside a 170\u00a0cm figure',
      );
      await expect(figures.nth(1)).toHaveAccessibleName(/^Fine-art print, 80 × 60\u00a0cm/);
      const bronze = await drawnHeights(figures.first());
      expect(bronze.work / bronze.person).toBeCloseTo(68 / 170, 1);
      // Closed again from the keyboard: the region goes.
      await page.keyboard.press('Enter');
      await expect(view).not.toHaveAttribute('open', '');
      await page.keyboard.press('Enter');
      await looksRight(page, view, `scale-small-${size.width}`);
      expect(errors).toEqual([]);
    });
  });
}
