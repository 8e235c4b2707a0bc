import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * A table that scrolls sideways on narrow screens. The scrolling box is a labelled region that takes focus,
 * so keyboard users can scroll it too (axe: scrollable-region-focusable). When the table is wider than its
 * box, a line above it says so, the region is described by that line, and shadows at the box's edges show
 * there is more to either side. Without JavaScript nothing is measured: the line shows on narrow screens.
 */
export function TableScroll({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  // null until measured (on the server, and without JavaScript).
  const [overflowing, setOverflowing] = useState<boolean | null>(null);
  const cueId = `${labelledBy}-scroll-cue`;

  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setOverflowing(box.scrollWidth > box.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      className="table-scroll-frame"
      data-overflowing={overflowing === null ? undefined : String(overflowing)}
    >
      <p id={cueId} className="table-scroll__cue">
        <span aria-hidden="true">⇆ </span>
        Scroll the table sideways to see all its columns.
      </p>
      <section
        ref={ref}
        className="table-scroll"
        aria-labelledby={labelledBy}
        aria-describedby={overflowing ? cueId : undefined}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        tabIndex={0}
      >
        {children}
      </section>
    </div>
  );
}
