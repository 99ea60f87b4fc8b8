import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** The work screen's design size: everything is laid out for it, then scaled. */
export const STAGE = { width: 1920, height: 1080 } as const;

/** The scale and offsets that fit the stage in a box, whole and centred (letterboxed). */
export function fit(boxWidth: number, boxHeight: number) {
  const scale = Math.min(boxWidth / STAGE.width, boxHeight / STAGE.height);
  return {
    scale,
    left: (boxWidth - STAGE.width * scale) / 2,
    top: (boxHeight - STAGE.height * scale) / 2,
  };
}

/**
 * A fixed 1920×1080 stage scaled with a CSS transform to the largest size that fits the window,
 * centred with bars on the long side; scaled again whenever the window (or the box) changes. The
 * layout inside never reflows, so what fits at 1920×1080 fits everywhere.
 */
export function Stage({ children, ready }: { children: ReactNode; ready: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState(() => fit(window.innerWidth, window.innerHeight));
  useLayoutEffect(() => {
    const el = box.current!;
    const place = () => setAt(fit(el.clientWidth, el.clientHeight));
    place();
    const observer = new ResizeObserver(place);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} className="ws-viewport">
      <div
        className="ws-stage"
        data-scale={at.scale.toFixed(4)}
        data-ready={ready ? 'true' : undefined}
        style={{
          width: STAGE.width,
          height: STAGE.height,
          transform: `translate(${at.left}px, ${at.top}px) scale(${at.scale})`,
        }}
      >
        {children}
      </div>
    </div>
  );
}
