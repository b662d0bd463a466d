import { describe, expect, it } from 'vitest';
import { clampView, fitSize, maxScale, zoomAt } from './zoom-scale.ts';

describe('the zoom geometry', () => {
  it('fits a portrait by its height and a landscape by its width, proportions kept', () => {
    expect(fitSize({ width: 1366, height: 900 }, { width: 3200, height: 4000 })).toEqual({
      width: 720,
      height: 900,
    });
    expect(fitSize({ width: 390, height: 844 }, { width: 4000, height: 3200 })).toEqual({
      width: 390,
      height: 312,
    });
  });

  it('reaches the master’s own pixels at most: one image pixel per CSS pixel', () => {
    const natural = { width: 3200, height: 4000 };
    const fit = fitSize({ width: 1366, height: 900 }, natural);
    const max = maxScale(natural, fit);
    expect(fit.width * max).toBe(3200);
    expect(max).toBeCloseTo(4.444, 3);
    // A phone needs more of it: the whole master width over 390 CSS pixels.
    const phone = fitSize({ width: 390, height: 844 }, natural);
    expect(phone.width * maxScale(natural, phone)).toBeCloseTo(3200, 9);
  });

  it('never goes below the fitted size, even for an image smaller than the screen', () => {
    const natural = { width: 500, height: 400 };
    expect(maxScale(natural, fitSize({ width: 1366, height: 900 }, natural))).toBe(1);
  });

  it('zooms around the pointer and stops at the bounds', () => {
    const start = { scale: 1, x: 100, y: 0 };
    const twice = zoomAt(start, 2, 300, 200, 4);
    expect(twice.scale).toBe(2);
    // The image point under (300, 200) is still under it: (300 − 100) / 1 = (300 − x) / 2.
    expect((300 - twice.x) / twice.scale).toBe(200);
    expect((200 - twice.y) / twice.scale).toBe(200);
    expect(zoomAt(twice, 10, 0, 0, 4).scale).toBe(4);
    expect(zoomAt(twice, 0.01, 0, 0, 4).scale).toBe(1);
  });

  it('keeps a larger image over the whole stage and centres a smaller one', () => {
    const stage = { width: 1000, height: 800 };
    const fit = { width: 640, height: 800 };
    expect(clampView({ scale: 1, x: -50, y: 30 }, fit, stage)).toEqual({ scale: 1, x: 180, y: 0 });
    expect(clampView({ scale: 2, x: 20, y: -2000 }, fit, stage)).toEqual({
      scale: 2,
      x: 0,
      y: -800,
    });
  });
});
