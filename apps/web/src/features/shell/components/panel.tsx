import type { CSSProperties, ReactNode } from 'react';
import './panel.css';

/**
 * A white panel with an optional title bar, drawn as antd's borderless Card is. The shell's pages
 * use it instead of Card, which brings its Tabs and Skeleton (12 KB gzip) into the first screen.
 */
export function Panel({
  title,
  className,
  style,
  children,
}: {
  title?: ReactNode;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <div className={className ? `shell-panel ${className}` : 'shell-panel'} style={style}>
      {title ? (
        <div className="shell-panel-head">
          <div className="shell-panel-title">{title}</div>
        </div>
      ) : null}
      <div className="shell-panel-body">{children}</div>
    </div>
  );
}
