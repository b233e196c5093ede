import { useT } from '../lib/i18n';
import './page-spinner.css';

/**
 * antd's Spin drawn in CSS alone (four dots turning): the entry and /login show it while a chunk or the
 * image code loads, without downloading antd's styling engine.
 */
export function PageSpinner({ size = 'large' }: { size?: 'small' | 'large' }) {
  const t = useT();
  return (
    <span className={`page-spinner page-spinner-${size}`} role="status" aria-label={t('common.loading')}>
      <i />
      <i />
      <i />
      <i />
    </span>
  );
}
