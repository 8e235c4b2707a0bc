import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on narrow screens. The scrolling box is a labelled region that takes focus,
 * so keyboard users can scroll it too (axe: scrollable-region-focusable).
 */
export function TableScroll({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section className="table-scroll" aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </section>
  );
}
