import { Component, type ReactNode } from 'react';
import { i18n } from '../lib/i18n';

/**
 * What the portal shows when a page's code cannot load (a new deployment replaced the files, the
 * connection dropped): a message and a reload, not a blank page. Plain markup: antd itself may be
 * what failed to load.
 */
export class ChunkFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="chunk-failure" role="alert">
        <p>{i18n.t('errors.chunkFailed')}</p>
        <button type="button" className="language-toggle chunk-failure-reload" onClick={() => window.location.reload()}>
          {i18n.t('errors.reload')}
        </button>
      </div>
    );
  }
}
