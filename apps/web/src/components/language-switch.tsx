import { GlobalOutlined } from '@ant-design/icons';
import { Suspense, forwardRef, lazy, useState, type ButtonHTMLAttributes } from 'react';
import { useLocale, useT, type Locale } from '../lib/i18n';
import './language-switch.css';

const SHORT_LABEL: Record<Locale, string> = { 'zh-CN': '中', en: 'EN' };

const loadMenu = () => import('./language-menu');
const LanguageMenu = lazy(loadMenu);

interface SwitchButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  compact: boolean;
}

/**
 * The switch's button, drawn like antd's text Button in plain markup (it is on /login, which carries no
 * antd); the dropdown (when loaded) attaches its handlers and ref to it.
 */
const SwitchButton = forwardRef<HTMLButtonElement, SwitchButtonProps>(function SwitchButton({ compact, className, ...props }, ref) {
  const t = useT();
  const locale = useLocale();
  return (
    <button ref={ref} type="button" aria-label={t('locale.label')} data-testid="language-switch" className={`language-switch${className ? ` ${className}` : ''}`} {...props}>
      <GlobalOutlined />
      <span>{compact ? SHORT_LABEL[locale] : locale === 'en' ? t('locale.en') : t('locale.zh')}</span>
    </button>
  );
});

/**
 * Switches zh-CN / English at runtime; texts, antd and dayjs follow, and the choice is remembered.
 * The menu is fetched on the first hover, focus or click (then opens), keeping it out of /login's bytes.
 */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const [wanted, setWanted] = useState(false);
  if (!wanted) {
    return <SwitchButton compact={compact} onMouseEnter={() => void loadMenu()} onFocus={() => void loadMenu()} onClick={() => setWanted(true)} />;
  }
  return (
    <Suspense fallback={<SwitchButton compact={compact} />}>
      <LanguageMenu initiallyOpen>
        <SwitchButton compact={compact} />
      </LanguageMenu>
    </Suspense>
  );
}
