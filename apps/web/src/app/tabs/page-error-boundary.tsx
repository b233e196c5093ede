import { Button, Result } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useT } from '../../lib/i18n';

function CrashNotice({ onRetry }: { onRetry: () => void }) {
  const t = useT();
  return (
    <Result
      status="warning"
      title={t('error.pageCrashed')}
      subTitle={t('error.pageCrashedHint')}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('tabs.refresh')}
        </Button>
      }
    />
  );
}

/** Keeps one broken page from blanking the whole console; "refresh" remounts the tab. */
export class PageErrorBoundary extends Component<{ children: ReactNode; onRetry: () => void }, { hasError: boolean }> {
  override state = { hasError: false };

  static getDerivedStateFromError(): { hasError: boolean } {
    return { hasError: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('page crashed', error, info.componentStack);
  }

  override render() {
    return this.state.hasError ? <CrashNotice onRetry={this.props.onRetry} /> : this.props.children;
  }
}
