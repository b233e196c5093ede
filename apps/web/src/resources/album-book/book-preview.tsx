import { AlbumBookPreview } from '../../components/album-book-preview';
import { useT } from '../../lib/i18n';
import { resourceApi, type ResourceRow } from '../shared/resource-api';

/** A child's automatic book as laid out: every page with its photos cropped as printed, the warnings, and the PDF. */
export function BookPreview({ row, frame, onClose }: { row: ResourceRow; frame: string; onClose: () => void }) {
  const t = useT();
  return (
    <AlbumBookPreview
      title={t('album.bookPreview', { name: String(row.studentIdLabel ?? row.studentId) })}
      queryKey={['albumBookPreview', row.id]}
      load={() => resourceApi('AlbumBook', frame).get(row.id)}
      onClose={onClose}
    />
  );
}
