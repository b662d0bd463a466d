// A cart line's thumbnail: the 400-px AVIF / WebP variants, with the master's proportions as
// width and height so nothing moves when it loads. Decorative: the title is next to it.
import type { CartLineData } from './types.ts';

const WIDTH = 400;

export function LineImage({
  image,
  className,
}: {
  image: CartLineData['image'];
  className: string;
}) {
  if (!image) return <div aria-hidden="true" className={`${className} bg-black/5`} />;
  const base = `/media/${image.sha256}/${WIDTH}`;
  return (
    <picture>
      <source type="image/avif" srcSet={`${base}.avif`} />
      <source type="image/webp" srcSet={`${base}.webp`} />
      <img
        src={`${base}.webp`}
        width={WIDTH}
        height={Math.round((WIDTH * image.height) / image.width)}
        alt=""
        loading="lazy"
        decoding="async"
        className={`${className} bg-black/5 object-cover`}
      />
    </picture>
  );
}
