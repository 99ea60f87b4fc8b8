import { useEffect, useRef } from 'react';
import { init, type EChartsCoreOption, type EChartsType } from './echarts';
import './echart.css';

export interface ChartTable {
  /** Column headings: the category, then one per series. */
  head: string[];
  rows: (string | number)[][];
}

/**
 * One chart: made on its div when mounted, given each new option, sized with its box (a
 * ResizeObserver, so a layout change resizes it too), disposed when unmounted. A canvas says
 * nothing to a screen reader: the figures go along as a visually hidden table, and the chart is
 * an image labelled with its title. `onRendered` is called after the first drawing of each option.
 */
export function EChart({
  option,
  label,
  table,
  className,
  onRendered,
}: {
  option: EChartsCoreOption;
  label: string;
  table: ChartTable;
  className?: string;
  onRendered?: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const rendered = useRef(onRendered);
  rendered.current = onRendered;

  useEffect(() => {
    const el = box.current!;
    const c = init(el, undefined, { renderer: 'canvas' });
    chart.current = c;
    c.on('finished', () => rendered.current?.());
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // The whole option each time: a series that disappears must not linger from the last one.
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <figure className={`echart ${className ?? ''}`}>
      <div ref={box} className="echart-canvas" role="img" aria-label={label} />
      {/* A table takes at least its content's width: the wrapper is what is hidden. */}
      <div className="visually-hidden">
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              {table.head.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, i) => (
              <tr key={i}>
                {row.map((cell, j) =>
                  j === 0 ? (
                    <th key={j} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={j}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
