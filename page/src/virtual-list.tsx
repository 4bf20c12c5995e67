// A list that draws only the rows in sight: 100,000 rows cost what 40 do. Rows have one fixed height.

import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export function VirtualList(props: {
  count: number;
  rowHeight: number;
  row: (index: number) => ComponentChildren;
  /** Keep the view at the bottom while it is there (a live log). */
  follow?: boolean;
  class?: string;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(600);
  const atBottom = useRef(true);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const element = ref.current;
    if (element && props.follow && atBottom.current) element.scrollTop = element.scrollHeight;
  });
  const first = Math.max(0, Math.floor(top / props.rowHeight) - 5);
  const last = Math.min(props.count, Math.ceil((top + height) / props.rowHeight) + 5);
  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} class="vrow" style={{ top: `${i * props.rowHeight}px`, height: `${props.rowHeight}px` }}>
        {props.row(i)}
      </div>,
    );
  }
  return (
    <div
      ref={ref}
      class={`vlist ${props.class ?? ''}`}
      data-testid={props.testId}
      data-count={props.count}
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current = element.scrollTop + element.clientHeight >= element.scrollHeight - props.rowHeight;
        setTop(element.scrollTop);
      }}
    >
      <div class="vspace" style={{ height: `${props.count * props.rowHeight}px` }}>
        {rows}
      </div>
    </div>
  );
}
