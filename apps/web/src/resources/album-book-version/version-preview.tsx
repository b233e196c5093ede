import { Button, Descriptions } from 'antd';
import { useState } from 'react';
import { AlbumBookPreview } from '../../components/album-book-preview';
import { useT } from '../../lib/i18n';
import { resourceApi, type ResourceRow } from '../shared/resource-api';

interface VersionChange {
  page: number;
  slot: number;
  photoId?: number;
  caption?: string;
}

/** The version's number as a link opening its preview: the pages as the parent left them, and what this save changed. */
export function VersionPreviewLink({ row }: { row: ResourceRow }) {
  const t = useT();
  const [isOpen, setOpen] = useState(false);
  return (
    // The link opens the preview, not also the row's drawer.
    <span onClick={(event) => event.stopPropagation()}>
      <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setOpen(true)}>
        {t('album.versionPreviewLink', { version: Number(row.versionNo) })}
      </Button>
      {isOpen && (
        <AlbumBookPreview
          title={t('album.versionPreview', { name: String(row.studentIdLabel ?? row.studentId), version: Number(row.versionNo) })}
          queryKey={['albumVersionPreview', row.id]}
          load={() => resourceApi('AlbumBookVersion', 'albumCustomized').get(row.id)}
          onClose={() => setOpen(false)}
          extra={<VersionChanges changes={(row.changes as VersionChange[] | null | undefined) ?? []} />}
        />
      )}
    </span>
  );
}

function VersionChanges({ changes }: { changes: readonly VersionChange[] }) {
  const t = useT();
  if (changes.length === 0) return null;
  return (
    <Descriptions size="small" bordered column={1} title={t('album.versionChanges', { count: changes.length })}>
      {changes.slice(0, 50).map((change, index) => (
        <Descriptions.Item key={index} label={t('album.changeAt', { page: change.page, slot: change.slot + 1 })}>
          {change.photoId !== undefined ? t('album.changePhoto', { id: change.photoId }) : t('album.changeCaption', { text: change.caption ?? '' })}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}
