import type { ReactNode } from 'react';
import { useT } from '../lib/i18n';
import { BrandMark } from './brand-mark';
import { LanguageSwitch } from './language-switch';
import './public-page-frame.css';

interface PublicPageFrameProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Wider card for content pages such as /fromily. */
  width?: number;
  children: ReactNode;
}

/** The frame of the pages outside the console: brand, a centred card, the language switch. */
export function PublicPageFrame({ title, subtitle, width = 420, children }: PublicPageFrameProps) {
  const t = useT();
  return (
    <div className="public-page">
      <div className="public-page-language">
        <LanguageSwitch />
      </div>
      <div className="public-page-body">
        <div className="public-brand">
          <BrandMark size={44} />
          <div>
            <div className="public-brand-name">{t('app.name')}</div>
            <div className="public-brand-slogan">{t('app.slogan')}</div>
          </div>
        </div>
        <section className="public-card" style={{ width }}>
          <h1 className="public-card-title">{title}</h1>
          {subtitle ? <p className="public-card-subtitle">{subtitle}</p> : null}
          {children}
        </section>
        <footer className="public-footer">
          © {new Date().getFullYear()} {t('app.name')} · {t('app.nameOther')}
        </footer>
      </div>
    </div>
  );
}
