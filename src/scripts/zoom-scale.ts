// The zoom's geometry (issue 25, deep zoom), pure so it is unit-tested: the image fitted to the
// stage at scale 1, the largest scale (the master's own pixels: one image pixel per CSS pixel, never
// less than the fitted size), a zoom that keeps the point under the pointer still, and a pan that
// never shows the stage's background beside a larger image.

export interface Size {
  width: number;
  height: number;
}

export interface View {
  scale: number;
  x: number;
  y: number;
}

/** The image's size when all of it fits the stage (scale 1), its proportions kept. */
export function fitSize(stage: Size, image: Size): Size {
  const ratio = image.height / image.width;
  const width = Math.max(1, Math.min(stage.width, stage.height / ratio));
  return { width, height: width * ratio };
}

/** The largest scale: the image at its natural size (1 image pixel per CSS pixel), at least 1. */
export function maxScale(natural: Size, fit: Size): number {
  return Math.max(1, natural.width / fit.width);
}

/** `view` zoomed by `factor` around the stage point (px, py), the scale kept within [1, max]. */
export function zoomAt(view: View, factor: number, px: number, py: number, max: number): View {
  const scale = Math.min(max, Math.max(1, view.scale * factor));
  const k = scale / view.scale;
  return { scale, x: px - (px - view.x) * k, y: py - (py - view.y) * k };
}

/** `view` moved so the image covers the stage where it is larger, and is centred where smaller. */
export function clampView(view: View, fit: Size, stage: Size): View {
  const w = fit.width * view.scale;
  const h = fit.height * view.scale;
  return {
    scale: view.scale,
    x: w <= stage.width ? (stage.width - w) / 2 : Math.min(0, Math.max(stage.width - w, view.x)),
    y: h <= stage.height ? (stage.height - h) / 2 : Math.min(0, Math.max(stage.height - h, view.y)),
  };
}
