import { WarningFilled } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useT } from '../../lib/i18n';

/**
 * What a crashed tab shows, drawn like antd's Result (status warning) from plain markup: Result would
 * add 10 kB to every console load for a notice that must also show when chunks cannot be fetched.
 */
function CrashNotice({ onRetry }: { onRetry: () => void }) {
  const t = useT();
  const { token } = theme.useToken();
  return (
    <div role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <WarningFilled style={{ fontSize: 72, color: token.colorWarning }} />
      <div style={{ marginTop: 24, fontSize: 24, lineHeight: 1.33, color: token.colorTextHeading }}>{t('error.pageCrashed')}</div>
      <div style={{ marginTop: 4, fontSize: 14, color: token.colorTextDescription }}>{t('error.pageCrashedHint')}</div>
      <div style={{ marginTop: 24 }}>
        <Button type="primary" onClick={onRetry}>
          {t('tabs.refresh')}
        </Button>
      </div>
    </div>
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
