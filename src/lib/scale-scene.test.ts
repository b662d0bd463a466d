import { describe, expect, it } from 'vitest';
import { HANG_CENTRE_CM, PERSON_CM, PLINTH_CM, scaleScenes } from './scale-scene.ts';

describe('scaleScenes', () => {
  it('hangs a work centred at eye level, right of a 170-cm figure', () => {
    const result = scaleScenes([{ heightCm: 114, widthCm: 146 }])!;
    const [scene] = result.scenes;
    const [work] = scene!.works;
    expect(work!.bottom + work!.height / 2).toBe(HANG_CENTRE_CM);
    expect(work!.width).toBe(146);
    expect(work!.height).toBe(114);
    expect(scene!.person).toMatchObject({ bottom: 0, height: PERSON_CM.height });
    // Side by side, never overlapping, and all on the wall.
    expect(work!.left).toBeGreaterThan(scene!.person.left + scene!.person.width);
    expect(work!.left + work!.width).toBeLessThan(result.width);
    expect(work!.bottom + work!.height).toBeLessThan(result.height);
  });

  it('raises a very tall work so it does not touch the floor', () => {
    const [scene] = scaleScenes([{ heightCm: 250, widthCm: 180 }])!.scenes;
    expect(scene!.works[0]!.bottom).toBe(40);
    expect(scene!.height).toBeGreaterThanOrEqual(40 + 250);
  });

  it('draws an original and its print on walls of one size, so they compare', () => {
    const result = scaleScenes([
      { heightCm: 200, widthCm: 150 },
      { heightCm: 100, widthCm: 80 },
    ])!;
    expect(result.scenes).toHaveLength(2);
    expect(result.scenes[0]!.width).toBe(result.scenes[1]!.width);
    expect(result.scenes[0]!.height).toBe(result.scenes[1]!.height);
    expect(result.scenes[1]!.works[0]!.width).toBe(80);
  });

  it('keeps a small work small on a wall of the least size', () => {
    const result = scaleScenes([{ heightCm: 30, widthCm: 24 }])!;
    expect(result.width).toBe(320);
    expect(result.height).toBe(230);
  });

  it('stands a sculpture on a plinth, on the floor', () => {
    const [scene] = scaleScenes([{ heightCm: 68, widthCm: 42, stand: 'plinth' }])!.scenes;
    const work = scene!.works[0]!;
    expect(scene!.plinth).toMatchObject({ bottom: 0, height: PLINTH_CM });
    expect(work.bottom).toBe(PLINTH_CM);
    expect(work.left).toBeGreaterThan(scene!.plinth!.left);
    expect(work.left + work.width).toBeLessThan(scene!.plinth!.left + scene!.plinth!.width);
  });

  it('has nothing to draw without a size', () => {
    expect(scaleScenes([])).toBeNull();
  });
});
