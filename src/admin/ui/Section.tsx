// A part of a screen named by its heading (aria-labelledby): screen readers list it as a region
// and read its title on entering it.
import type { ReactNode } from 'react';

interface Props {
  /** The heading's id, unique in the page. */
  id: string;
  title: ReactNode;
  className?: string | undefined;
  /** The heading's classes: a serif title unless the screen hides or sizes it otherwise. */
  heading?: string;
  /** h2 for a screen's parts, h3 inside a dialog's. */
  level?: 2 | 3;
  children: ReactNode;
}

export default function Section({
  id,
  title,
  className,
  heading = 'font-serif text-xl',
  level = 2,
  children,
}: Props) {
  const Heading = level === 3 ? 'h3' : 'h2';
  return (
    <section aria-labelledby={id} className={className}>
      <Heading id={id} className={heading}>
        {title}
      </Heading>
      {children}
    </section>
  );
}
