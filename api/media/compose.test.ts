import { describe, it, expect } from 'vitest';
import sharp from 'sharp';
import { renderComposition, type CompositionSpec } from './compose.ts';

const spec: CompositionSpec = {
  seed: 'lumiere-du-tage',
  palette: ['#1f3a5f', '#e9c46a', '#f4f1ea', '#c8553d'],
  width: 300,
  height: 375,
};

describe('renderComposition', () => {
  it('is deterministic: the same spec gives identical bytes', async () => {
    const a = await renderComposition(spec);
    const b = await renderComposition({ ...spec, palette: [...spec.palette] });
    expect(a.equals(b)).toBe(true);
  });

  it('gives different images for different seeds', async () => {
    const a = await renderComposition(spec);
    const b = await renderComposition({ ...spec, seed: 'sel-et-cendre' });
    expect(a.equals(b)).toBe(false);
  });

  it('outputs a JPEG of the requested size', async () => {
    const landscape = await renderComposition({ ...spec, width: 500, height: 400 });
    const meta = await sharp(landscape).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(500);
    expect(meta.height).toBe(400);
  });

  it('rejects an invalid palette', async () => {
    await expect(renderComposition({ ...spec, palette: ['#1f3a5f'] })).rejects.toThrow(/palette/);
    await expect(renderComposition({ ...spec, palette: ['#1f3a5f', 'red'] })).rejects.toThrow(
      /palette colour/,
    );
    await expect(renderComposition({ ...spec, palette: ['#1f3a5f', '#fff'] })).rejects.toThrow(
      /#rrggbb/,
    );
  });

  it('rejects invalid dimensions', async () => {
    await expect(renderComposition({ ...spec, width: 10 })).rejects.toThrow(/width/);
    await expect(renderComposition({ ...spec, height: 1200.5 })).rejects.toThrow(/height/);
  });
});
