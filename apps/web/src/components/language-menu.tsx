import { ConfigProvider, Dropdown } from 'antd';
import { useState, type ReactElement } from 'react';
import { LOCALES, setLocale, useLocale, useT, type Locale } from '../lib/i18n';
import { THEME } from '../lib/theme';
import { showToast } from '../lib/toast';

/**
 * The language switch's dropdown, its own chunk: the menu (and antd's Dropdown and Menu) is
 * downloaded when someone reaches for the switch, not with /login. The theme is given here because
 * /login draws it outside antd's provider (inside the console it matches the provider's own).
 */
export default function LanguageMenu({ initiallyOpen, children }: { initiallyOpen: boolean; children: ReactElement }) {
  const t = useT();
  const locale = useLocale();
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <ConfigProvider theme={THEME}>
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        open={open}
        onOpenChange={setOpen}
        menu={{
          selectable: true,
          selectedKeys: [locale],
          items: LOCALES.map((key) => ({ key, label: key === 'en' ? t('locale.en') : t('locale.zh') })),
          onClick: ({ key }) => {
            setOpen(false);
            // A language that cannot be downloaded leaves the page in the current one.
            void setLocale(key as Locale).catch(() => showToast('error', t('error.network')));
          },
        }}
      >
        {children}
      </Dropdown>
    </ConfigProvider>
  );
}
