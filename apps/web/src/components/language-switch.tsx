import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Suspense, forwardRef, lazy, useState, type ComponentProps } from 'react';
import { useLocale, useT, type Locale } from '../lib/i18n';

const SHORT_LABEL: Record<Locale, string> = { 'zh-CN': '中', en: 'EN' };

const loadMenu = () => import('./language-menu');
const LanguageMenu = lazy(loadMenu);

interface SwitchButtonProps extends ComponentProps<typeof Button> {
  compact: boolean;
}

/** The switch's button; the dropdown (when loaded) attaches its handlers and ref to it. */
const SwitchButton = forwardRef<HTMLButtonElement, SwitchButtonProps>(function SwitchButton({ compact, ...props }, ref) {
  const t = useT();
  const locale = useLocale();
  return (
    <Button ref={ref} type="text" icon={<GlobalOutlined />} aria-label={t('locale.label')} data-testid="language-switch" className="language-switch" {...props}>
      {compact ? SHORT_LABEL[locale] : locale === 'en' ? t('locale.en') : t('locale.zh')}
    </Button>
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
