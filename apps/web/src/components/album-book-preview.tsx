import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Drawer, List, Space, Spin } from 'antd';
import type { ReactNode } from 'react';
import { AlbumPages, type PreviewPage } from './album-pages';
import { useWindowWidth } from '../hooks/use-window-width';
import { useT, type Translate } from '../lib/i18n';

interface BookWarning {
  code: 'slotEmpty' | 'lowDpi' | 'unreadablePhoto' | 'photosUnused' | 'textNotPrintable';
  page?: number;
  slot?: number;
  dpi?: number;
  count?: number;
  photoId?: number;
}

function warningText(t: Translate, warning: BookWarning): string {
  switch (warning.code) {
    case 'slotEmpty':
      return t('album.warnSlotEmpty', { page: warning.page ?? 0 });
    case 'lowDpi':
      return t('album.warnLowDpi', { page: warning.page ?? 0, dpi: warning.dpi ?? 0 });
    case 'unreadablePhoto':
      return t('album.warnUnreadable', { id: warning.photoId ?? 0 });
    case 'photosUnused':
      return t('album.warnUnused', { count: warning.count ?? 0 });
    default:
      return t('album.warnText', { page: warning.page ?? 0 });
  }
}

/**
 * A laid-out book (an automatic book, a parent's customised version) in a drawer: every page with its
 * photos cropped as printed, the warnings, and the PDF once there is one.
 * @example <AlbumBookPreview title={name} queryKey={['albumBookPreview', id]} load={() => api.get(id)} onClose={close} />
 */
export function AlbumBookPreview({ title, queryKey, load, onClose, extra }: { title: string; queryKey: readonly unknown[]; load: () => Promise<Record<string, unknown>>; onClose: () => void; extra?: ReactNode }) {
  const t = useT();
  const windowWidth = useWindowWidth();
  const book = useQuery({ queryKey, queryFn: load });
  const layout = book.data?.layout as { trimWidthMm: number; trimHeightMm: number; pages: PreviewPage[] } | null | undefined;
  const warnings = (book.data?.warnings as BookWarning[] | null | undefined) ?? [];
  const pdf = book.data?.pdfFile as string | null | undefined;
  return (
    <Drawer
      open
      title={title}
      size={Math.min(1200, windowWidth - 48)}
      onClose={onClose}
      destroyOnHidden
      extra={
        pdf && (
          <Button type="primary" href={pdf} target="_blank" rel="noopener noreferrer">
            {t('album.openPdf')}
          </Button>
        )
      }
    >
      {book.isLoading ? (
        <Spin />
      ) : !layout ? (
        <Alert type="info" showIcon message={t('album.notRendered')} />
      ) : (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          {extra}
          {warnings.length > 0 && (
            <Alert
              type="warning"
              showIcon
              message={t('album.warnings', { count: warnings.length })}
              description={
                // Long lists scroll inside the alert: the pages below are what the reader came for.
                <div style={{ maxHeight: 160, overflowY: 'auto' }}>
                  <List size="small" dataSource={warnings.slice(0, 100)} renderItem={(warning) => <List.Item>{warningText(t, warning)}</List.Item>} />
                </div>
              }
            />
          )}
          <AlbumPages pages={layout.pages} widthMm={layout.trimWidthMm} heightMm={layout.trimHeightMm} pageWidth={260} pageLabel={(page) => (page === 1 ? t('album.cover') : t('album.page', { page }))} lowDpiLabel={t('album.lowDpi')} />
        </Space>
      )}
    </Drawer>
  );
}
