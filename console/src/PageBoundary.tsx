import { Component, type ReactNode } from 'react';
import { Button, Result } from 'antd';
import i18n from './i18n';

/** What a page that could not load (or crashed) shows instead of a blank screen: a way back. */
export class PageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div data-testid="page-load-failed">
      <Result
        status="warning"
        title={i18n.t('pageLoadFailed')}
        extra={
          <Button type="primary" data-testid="page-reload" onClick={() => window.location.reload()}>
            {i18n.t('reload')}
          </Button>
        }
      />
      </div>
    );
  }
}
