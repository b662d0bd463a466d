// The work form's values as typed become the endpoints' body, checked by the kernel's schemas
// (issue 27): French amounts, empty numbers, and errors named on the form's own fields.
import { describe, expect, it } from 'vitest';
import { createFormSchema, formValuesOf, patchFormSchema } from './form-values.ts';

const photo = { sha256: 'a'.repeat(64), width: 10, height: 10, caption: { fr: '', en: '' } };

describe('the work form', () => {
  it('opens a new print with the spec defaults, its price in French', () => {
    const values = formValuesOf(null, 'print');
    expect(values).toMatchObject({ dimensions: '100 x 80 cm', priceCents: '420,00', stock: '10' });
  });

  it('reads "9 400,00" as 940 000 cents and sends what the endpoint takes', () => {
    const values = {
      ...formValuesOf(null, 'print'),
      title: { fr: ' Matin ', en: 'Morning' },
      priceCents: '9 400,00',
      editionSize: '',
      images: [photo],
    };
    const parsed = createFormSchema.safeParse(values);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject({
      type: 'print',
      title: { fr: 'Matin', en: 'Morning' },
      priceCents: 940_000,
      stock: 10,
      editionSize: null,
      images: [{ sha256: photo.sha256, caption: { fr: '', en: '' } }],
    });
  });

  it('names the field to correct, with the kernel’s message', () => {
    const values = { ...formValuesOf(null, 'original'), priceCents: '9.400,x', images: [photo] };
    const parsed = createFormSchema.safeParse(values);
    expect(parsed.success).toBe(false);
    const issues = parsed.error!.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toContainEqual(['priceCents', 'admin.artwork.error.price']);
    expect(issues).toContainEqual(['title.fr', 'admin.artwork.error.titleRequired']);
  });

  it('sends an edit with the version it was opened on, an original without print fields', () => {
    const work = {
      ...formValuesOf(null, 'original'),
      version: 7,
      title: { fr: 'Seuil', en: 'Threshold' },
      dimensions: '100 x 80 cm',
      priceCents: '410 000',
      images: [photo],
    };
    const parsed = patchFormSchema.safeParse(work);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject({ version: 7, priceCents: 41_000_000, originalId: null });
    expect(parsed.data).not.toHaveProperty('editionEa');
  });
});
