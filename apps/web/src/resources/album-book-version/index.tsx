/** The customised versions page (albumCustomized): each parent's saved version, previewed from its version number. */
import { Suspense, lazy } from 'react';
import type { WebFamilyModule } from '../resource-overrides';
import type { ResourceRow } from '../shared/resource-api';

const PreviewLink = lazy(() => import('./version-preview').then((module) => ({ default: module.VersionPreviewLink })));

function VersionCell({ row }: { row: ResourceRow }) {
  return (
    <Suspense fallback={String(row.versionNo)}>
      <PreviewLink row={row} />
    </Suspense>
  );
}

export const albumBookVersionModule: WebFamilyModule = {
  family: 'AlbumBookVersion',
  log: { cells: { versionNo: (row) => <VersionCell row={row} /> } },
};
