import { useCallback, useEffect, useMemo, useState } from 'react';
import '../messages';
import { useTranslation } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/site';
import { useLatestOpenAlerts, useOpenDashboard } from '../api/dashboard';
import { AlertTicker } from './alert-ticker';
import { devicesChart, industryChart, regionChart, registrationsChart, type Look } from './charts';
import { Clock } from './clock';
import { EChart } from '../../../components/charts/echart';
import { Stage } from './stage';
import './open-pages.css';
import './work-screen.css';

/** A wall display polls: every 10 s, and keeps its last figures while the server is away. */
export const WORK_SCREEN_REFRESH_MS = 10_000;
/** The performance mark set when the first figures are drawn in every chart (bench/shell.ts). */
export const READY_MARK = 'workscreen-ready';
const LATEST_ALERTS = 10;

/**
 * /workscreen: the park's big-screen display (ADR 027): a 1920×1080 stage scaled to the window,
 * dark, with type readable from across a room. Polls the open dashboard and the newest open
 * alerts; a failed poll keeps the figures and shows a small "reconnecting" marker until a poll
 * succeeds again, so the screen survives a server restart without a reload.
 */
export function WorkScreen({ tenantCode }: { tenantCode: string }) {
  const { t, i18n } = useTranslation();
  const dashboard = useOpenDashboard(tenantCode, WORK_SCREEN_REFRESH_MS);
  const alerts = useLatestOpenAlerts(tenantCode, LATEST_ALERTS, WORK_SCREEN_REFRESH_MS);
  const data = dashboard.data;
  useDocumentTitle(data ? `${data.park} · ${t('openPages.workScreenTitle')}` : t('openPages.workScreenTitle'));

  const look: Look = useMemo(() => ({ dark: true, font: 20, enter: false }), []);
  const charts = useMemo(
    () =>
      data && [
        {
          key: 'registrations',
          title: t('openPages.registrations'),
          ...registrationsChart(data, look, t, i18n.language),
        },
        {
          key: 'industry',
          title: t('openPages.byIndustry'),
          ...industryChart(data, look, t, 260, false, ['38%', '62%']),
        },
        { key: 'devices', title: t('openPages.devicesByType'), ...devicesChart(data, look, t) },
        { key: 'region', title: t('openPages.byRegion'), ...regionChart(data, look, t) },
      ],
    [data, look, t, i18n.language],
  );

  // Ready once every chart with figures has drawn them (a chart without any shows a text).
  const [drawn, setDrawn] = useState<ReadonlySet<string>>(new Set());
  const markDrawn = useCallback((key: string) => setDrawn((s) => (s.has(key) ? s : new Set(s).add(key))), []);
  const ready = !!charts && charts.every((c) => c.table.rows.length === 0 || drawn.has(c.key));
  useEffect(() => {
    if (ready && performance.getEntriesByName(READY_MARK).length === 0) performance.mark(READY_MARK);
  }, [ready]);

  const failed = dashboard.isError || alerts.isError;
  const kpis = data
    ? [
        { label: t('openPages.enterprises'), value: String(data.enterprises.total) },
        { label: t('openPages.registeredThisMonth'), value: String(data.enterprises.registeredThisMonth) },
        { label: t('openPages.devicesOnline'), value: String(data.devices.online), of: `/ ${data.devices.total}` },
        { label: t('openPages.openAlerts'), value: String(data.alerts.open), warn: data.alerts.open > 0 },
      ]
    : [];

  return (
    <Stage ready={ready}>
      <header className="ws-header">
        <Clock language={i18n.language} />
        <h1 className="ws-title">
          {data ? <span className="ws-park">{data.park}</span> : null}
          {t('openPages.workScreenTitle')}
        </h1>
        <div className="ws-status">
          {data ? <span>{t('openPages.updated', { time: data.generatedTime.slice(11) })}</span> : null}
          {failed ? (
            <span className="ws-reconnecting" role="status">
              {t('openPages.reconnecting')}
            </span>
          ) : null}
        </div>
      </header>
      <section className="ws-kpis" aria-label={t('openPages.dashboardTitle')}>
        {kpis.map((k) => (
          <div key={k.label} className={k.warn ? 'ws-kpi ws-kpi-warn' : 'ws-kpi'}>
            <span className="ws-kpi-label">{k.label}</span>
            <span className="ws-kpi-value">
              {k.value}
              {k.of ? <span className="ws-kpi-of"> {k.of}</span> : null}
            </span>
          </div>
        ))}
      </section>
      {charts?.map((c) => (
        <section key={c.key} className={`ws-panel ws-panel-${c.key}`}>
          <h2>{c.title}</h2>
          {c.table.rows.length === 0 ? (
            <p className="ws-empty">{t('openPages.noData')}</p>
          ) : (
            <EChart
              option={c.option}
              table={c.table}
              label={c.title}
              className="ws-chart"
              onRendered={() => markDrawn(c.key)}
            />
          )}
        </section>
      ))}
      <section className="ws-panel ws-panel-alerts">
        <h2>{t('openPages.latestAlerts')}</h2>
        {alerts.data ? <AlertTicker alerts={alerts.data} t={t} /> : null}
      </section>
      {!data && failed ? <p className="ws-failed">{t('openPages.loadFailed')}</p> : null}
    </Stage>
  );
}
