import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { LOCALES, setLocale, useLocale, useT, type Locale } from '../lib/i18n';

const SHORT_LABEL: Record<Locale, string> = { 'zh-CN': '中', en: 'EN' };

/** Switches zh-CN / English at runtime; texts, antd and dayjs follow, and the choice is remembered. */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const locale = useLocale();
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        selectable: true,
        selectedKeys: [locale],
        items: LOCALES.map((key) => ({ key, label: key === 'en' ? t('locale.en') : t('locale.zh') })),
        onClick: ({ key }) => setLocale(key as Locale),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('locale.label')} data-testid="language-switch" className="language-switch">
        {compact ? SHORT_LABEL[locale] : locale === 'en' ? t('locale.en') : t('locale.zh')}
      </Button>
    </Dropdown>
  );
}
