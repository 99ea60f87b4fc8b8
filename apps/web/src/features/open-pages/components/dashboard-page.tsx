import type { Dashboard } from '@portal/contracts';
import '../messages';
import { Alert, Card, Skeleton } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { devicesChart, industryChart, regionChart, registrationsChart, type Look } from './charts';
import { EChart } from '../../../components/charts/echart';
import { useMedia } from './use-media';
import './open-pages.css';
import '../../../locales/devices';

/** The dashboard reads again every minute: registrations and devices change slowly. */
export const DASHBOARD_REFRESH_MS = 60_000;

function Kpi({ label, value, detail }: { label: string; value: ReactNode; detail?: ReactNode }) {
  return (
    <Card variant="borderless" className="dash-kpi">
      <div className="dash-kpi-label">{label}</div>
      <div className="dash-kpi-value">{value}</div>
      {detail ? <div className="dash-kpi-detail">{detail}</div> : null}
    </Card>
  );
}

/**
 * /user/dashboard: the park at a glance for the public (ADR 027): key figures and four charts of
 * the tenant's resident enterprises, registrations and public devices; one column on a phone.
 */
export function DashboardPage({ data, failed }: { data: Dashboard | undefined; failed: boolean }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const narrow = useMedia('(max-width: 575px)');
  const look: Look = useMemo(() => ({ dark: false, font: 13, enter: true }), []);
  const charts = useMemo(
    () =>
      data && {
        registrations: registrationsChart(data, look, t, i18n.language),
        industry: industryChart(data, look, t, narrow ? 300 : 240, narrow),
        region: regionChart(data, look, t),
        devices: devicesChart(data, look, t),
      },
    [data, look, t, i18n.language, narrow],
  );

  if (!data || !charts) {
    return failed ? (
      <Alert type="warning" showIcon message={t('openPages.loadFailed')} />
    ) : (
      <Skeleton active paragraph={{ rows: 8 }} />
    );
  }
  const severities = data.alerts.bySeverity
    .map((s) => `${t(`devices.severities.${s.severity}`)} ${s.count}`)
    .join(' · ');
  const panels = [
    { key: 'registrations', title: t('openPages.registrations'), chart: charts.registrations },
    { key: 'industry', title: t('openPages.byIndustry'), chart: charts.industry },
    { key: 'region', title: t('openPages.byRegion'), chart: charts.region },
    { key: 'devices', title: t('openPages.devicesByType'), chart: charts.devices },
  ];
  return (
    <div className="dash">
      <p className="dash-meta">
        <span>{t('openPages.updated', { time: data.generatedTime })}</span>
        {failed ? (
          <span className="dash-stale" role="status">
            {t('openPages.reconnecting')}
          </span>
        ) : null}
        <Link className="dash-screen-link" to={{ pathname: '/workscreen', search: location.search }}>
          {t('openPages.openWorkScreen')}
        </Link>
      </p>
      <section className="dash-kpis" aria-label={t('openPages.dashboardTitle')}>
        <Kpi label={t('openPages.enterprises')} value={data.enterprises.total} />
        <Kpi label={t('openPages.registeredThisMonth')} value={data.enterprises.registeredThisMonth} />
        <Kpi
          label={t('openPages.devicesOnline')}
          value={
            <>
              {data.devices.online}
              <span className="dash-kpi-of"> / {data.devices.total}</span>
            </>
          }
        />
        <Kpi label={t('openPages.openAlerts')} value={data.alerts.open} detail={severities} />
      </section>
      <div className="dash-charts">
        {panels.map((p) => (
          <Card
            key={p.key}
            variant="borderless"
            className={`dash-panel dash-panel-${p.key}`}
            title={<h2>{p.title}</h2>}
          >
            {p.chart.table.rows.length === 0 ? (
              <p className="dash-empty">{t('openPages.noData')}</p>
            ) : (
              <EChart option={p.chart.option} table={p.chart.table} label={p.title} className="dash-chart" />
            )}
          </Card>
        ))}
      </div>
    </div>
  );
}
