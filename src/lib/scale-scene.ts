// "Voir à l'échelle" (issue 25, part 5): where the work and a standing person go on a wall drawn
// in centimetres, so the page can draw both at one true scale. A picture hangs as galleries hang
// (its centre at eye level, 150 cm), raised when it is too tall for that; a sculpture stands on a
// 90-cm plinth; a 170-cm figure stands to its left. Several works (an original and its print)
// share one wall size, so their figures compare at a glance.
import type { Dimensions } from '../domain/dimensions.ts';

export const PERSON_CM = { height: 170, width: 50 } as const;
/** Where a work's centre hangs, and how far above the floor its lower edge stays at least. */
export const HANG_CENTRE_CM = 150;
const MIN_BOTTOM_CM = 40;
const MARGIN_CM = 40;
const GAP_CM = 60;
const HEADROOM_CM = 30;
/** The least wall drawn, so a small work still reads against the person. */
const MIN_WALL = { width: 320, height: 230 } as const;
export const PLINTH_CM = 90;

export interface Placed {
  /** From the wall's left edge, in cm. */
  left: number;
  /** From the floor up to the lower edge, in cm. */
  bottom: number;
  width: number;
  height: number;
}

export interface Scene {
  /** The wall drawn, in cm (the floor line is its bottom). */
  width: number;
  height: number;
  person: Placed;
  works: Placed[];
  /** Under a sculpture. */
  plinth: Placed | null;
}

export interface Piece extends Pick<Dimensions, 'heightCm' | 'widthCm'> {
  /** 'plinth' for a sculpture; a picture hangs. */
  stand?: 'wall' | 'plinth';
}

const LEFT = MARGIN_CM + PERSON_CM.width + GAP_CM;

function place(piece: Piece): { work: Placed; plinth: Placed | null } {
  if (piece.stand === 'plinth') {
    const width = Math.max(piece.widthCm + 16, 40);
    return {
      work: { left: LEFT + 8, bottom: PLINTH_CM, width: piece.widthCm, height: piece.heightCm },
      plinth: { left: LEFT, bottom: 0, width, height: PLINTH_CM },
    };
  }
  const bottom = Math.max(HANG_CENTRE_CM - piece.heightCm / 2, MIN_BOTTOM_CM);
  return {
    work: { left: LEFT, bottom, width: piece.widthCm, height: piece.heightCm },
    plinth: null,
  };
}

/** One scene per piece, all on a wall of the same size. Null for none. */
export function scaleScenes(
  pieces: readonly Piece[],
): { width: number; height: number; scenes: Scene[] } | null {
  if (pieces.length === 0) return null;
  const placed = pieces.map(place);
  const right = (p: Placed) => p.left + p.width + MARGIN_CM;
  const width = Math.max(
    MIN_WALL.width,
    ...placed.flatMap(({ work, plinth }) => [right(work), plinth ? right(plinth) : 0]),
  );
  const height = Math.max(
    MIN_WALL.height,
    ...placed.map(({ work }) => work.bottom + work.height + HEADROOM_CM),
  );
  const person: Placed = { left: MARGIN_CM, bottom: 0, ...PERSON_CM };
  return {
    width,
    height,
    scenes: placed.map(({ work, plinth }) => ({ width, height, person, works: [work], plinth })),
  };
}
