/** The automatic book page: a preview of each child's laid-out book, its warnings and its print PDF; the list follows the job's progress. */
import { Suspense, lazy, type ComponentProps } from 'react';
import type { WebFamilyModule } from '../resource-overrides';

const PreviewPart = lazy(() => import('./book-preview').then((module) => ({ default: module.BookPreview })));

function BookPreview(props: ComponentProps<typeof PreviewPart>) {
  return (
    <Suspense fallback={null}>
      <PreviewPart {...props} />
    </Suspense>
  );
}

export const albumBookModule: WebFamilyModule = {
  family: 'AlbumBook',
  overrides: { rowActions: [{ key: 'preview', label: 'rowAction.preview', Panel: BookPreview }], refreshSeconds: 5 },
};
