import { useQuery } from '@tanstack/react-query';
import { Drawer, Spin } from 'antd';
import { AlbumPages, type PreviewPage } from '../../components/album-pages';
import { useWindowWidth } from '../../hooks/use-window-width';
import { useT } from '../../lib/i18n';
import { resourceApi, type ResourceRow } from '../shared/resource-api';

/** A template's pages drawn from its slots: dashed boxes for photos, dotted ones for text. */
export function TemplatePreview({ row, frame, onClose }: { row: ResourceRow; frame: string; onClose: () => void }) {
  const t = useT();
  const windowWidth = useWindowWidth();
  const template = useQuery({ queryKey: ['albumTemplatePreview', row.id], queryFn: () => resourceApi('AlbumTemplate', frame).get(row.id) });
  const data = template.data;
  return (
    <Drawer open title={t('album.templatePreview', { name: String(row.name ?? row.id) })} size={Math.min(1100, windowWidth - 48)} onClose={onClose} destroyOnHidden>
      {!data ? (
        <Spin />
      ) : (
        <AlbumPages
          pages={(data.slots as PreviewPage[] | null) ?? []}
          widthMm={Number(data.trimWidthMm)}
          heightMm={Number(data.trimHeightMm)}
          pageLabel={(page) => (page === 1 ? t('album.cover') : t('album.page', { page }))}
          lowDpiLabel={t('album.lowDpi')}
        />
      )}
    </Drawer>
  );
}
