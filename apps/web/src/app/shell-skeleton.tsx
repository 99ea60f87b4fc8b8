import { runtimeConfig } from '../lib/config';
import { useTranslation } from '../lib/i18n';
import './shell-skeleton.css';

/**
 * The shell's outline while its code and the session's menu load (after login, on a reload): the
 * sider or top bar, the header, the tab strip and two cards, in the configured layout. Plain HTML
 * and CSS from the main bundle, so it shows at once, before antd or the shell have loaded.
 */
export function ShellSkeleton() {
  const { t } = useTranslation();
  const top = runtimeConfig().apptheme === 'top';
  const bars = [0, 1, 2, 3, 4];
  return (
    <div className={`sk sk-${top ? 'top' : 'side'}`} role="status" aria-busy="true" aria-label={t('app.loading')}>
      {top ? (
        <div className="sk-topbar">
          <span className="sk-brand" />
          {bars.map((i) => (
            <span key={i} className="sk-bar sk-nav" />
          ))}
        </div>
      ) : null}
      <div className="sk-body">
        <div className="sk-sider">
          {top ? null : <span className="sk-brand" />}
          {bars.map((i) => (
            <span key={i} className="sk-bar" />
          ))}
        </div>
        <div className="sk-main">
          {top ? null : <div className="sk-header" />}
          <div className="sk-tabs">
            <span className="sk-bar sk-tab" />
          </div>
          <div className="sk-content">
            <div className="sk-card" />
            <div className="sk-card sk-card-tall" />
          </div>
        </div>
      </div>
    </div>
  );
}
