/**
 * One widget as a page shows it, and as the builder's canvas shows it (`design`: links do not
 * navigate and frames do not take the pointer, so the widget can be picked up). Every text is
 * rendered as text, never as HTML.
 */
import { inAppLink, measureValue, pageImageAllowed, type Widget, type WidgetOf } from '@portal/contracts';
import { Col, Result, Row, Skeleton, Statistic } from 'antd';
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { frameSandbox } from '../../../lib/frames';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { usePageMeasures } from '../api/pages';
import { DevicesWidget, NoticesWidget } from './data-widgets';
import { useLocalText } from './language';

// ECharts comes with the first chart widget, not with every drag page.
const ChartWidget = lazy(() => import('./chart-widget').then((m) => ({ default: m.ChartWidget })));

export function WidgetView({ widget, design = false }: { widget: Widget; design?: boolean }) {
  const text = useLocalText();
  const { t } = useTranslation();
  const title = 'title' in widget.props ? text(widget.props.title) : '';
  return (
    <section className={`dp-widget dp-widget-${widget.kind}`} aria-label={title || undefined}>
      {title ? <h3 className="dp-widget-title">{title}</h3> : null}
      <div className="dp-widget-body">
        {/* A widget that fails takes only itself down: the page, and the builder's preview, go on. */}
        <WidgetBoundary
          key={JSON.stringify(widget.props)}
          fallback={<WidgetFailed text={t('dragPage.widgetBroken')} />}
        >
          <Body widget={widget} design={design} title={title} />
        </WidgetBoundary>
      </div>
    </section>
  );
}

/** Catches what one widget throws while it renders; changed settings (a new key) try again. */
class WidgetBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('a drag-page widget failed', error);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function WidgetFailed({ text }: { text: string }) {
  return (
    <div className="dp-widget-failed" role="alert">
      {text}
    </div>
  );
}

function Body({ widget, design, title }: { widget: Widget; design: boolean; title: string }) {
  const text = useLocalText();
  const { t } = useTranslation();
  const location = useLocation();
  const microApps = useSession((s) => s.microApps);
  switch (widget.kind) {
    case 'text':
      return <p className="dp-text">{text(widget.props.text)}</p>;
    case 'image':
      // Checked when saved; a page stored before the rule is not fetched from here either: an
      // image's request carries the viewer's cookies, and a path of the portal could act.
      if (!pageImageAllowed(widget.props.src, window.location.origin))
        return <Result status="warning" subTitle={t('dragPage.imageRefused')} />;
      return (
        <img
          className="dp-image"
          src={widget.props.src}
          alt={text(widget.props.alt)}
          style={{ objectFit: widget.props.fit }}
          draggable={false}
        />
      );
    case 'links':
      return (
        <div className="dp-links">
          {widget.props.items.map((l, i) =>
            design ? (
              <span key={i} className="dp-link">
                {text(l.title)}
              </span>
            ) : (
              <Link key={i} className="dp-link" to={inAppLink(l.path, location.search)}>
                {text(l.title)}
              </Link>
            ),
          )}
        </div>
      );
    case 'stats':
      return <Figures props={widget.props} />;
    case 'chart':
      return (
        <Suspense fallback={<Skeleton active />}>
          <ChartWidget props={widget.props} label={title} />
        </Suspense>
      );
    case 'table':
      return (
        <div className="dp-table-wrap">
          <table className="dp-table">
            <thead>
              <tr>
                {widget.props.columns.map((c, i) => (
                  <th key={i} scope="col">
                    {text(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {widget.props.rows.map((row, r) => (
                <tr key={r}>
                  {widget.props.columns.map((_, c) => (
                    <td key={c}>{text(row[c])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'iframe': {
      // Checked when saved; an application removed since is refused here too (and by the CSP).
      const origin = URL.canParse(widget.props.url) ? new URL(widget.props.url).origin : widget.props.url;
      const registered = (microApps ?? []).some((a) => URL.canParse(a.entry) && new URL(a.entry).origin === origin);
      if (!registered) return <Result status="warning" subTitle={t('dragPage.frameRefused', { origin })} />;
      return (
        <iframe
          className="dp-frame"
          src={widget.props.url}
          title={title || t('dragPage.kinds.iframe')}
          style={design ? { pointerEvents: 'none' } : undefined}
          sandbox={frameSandbox(widget.props.url)}
          referrerPolicy="strict-origin-when-cross-origin"
        />
      );
    }
    case 'notices':
      return <NoticesWidget count={widget.props.count} />;
    case 'devices':
      return <DevicesWidget count={widget.props.count} />;
  }
}

/**
 * Figures: each the value typed in, or, bound to a measure, the live figure the server computes for
 * the viewer's park (— while it is read or when it cannot be).
 */
function Figures({ props }: { props: WidgetOf<'stats'>['props'] }) {
  const text = useLocalText();
  const live = usePageMeasures(props.items.some((s) => s.measure));
  return (
    <Row gutter={[16, 8]}>
      {props.items.map((s, i) => (
        <Col key={i} xs={12} md={Math.max(4, Math.floor(24 / Math.max(1, props.items.length)))}>
          <Statistic
            title={text(s.label)}
            value={s.measure ? (live.data ? measureValue(live.data, s.measure) : '—') : s.value}
            suffix={text(s.suffix)}
          />
        </Col>
      ))}
    </Row>
  );
}
