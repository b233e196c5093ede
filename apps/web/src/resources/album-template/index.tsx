/** The album template page: a preview of each page's slots beside the list. */
import { Suspense, lazy, type ComponentProps } from 'react';
import type { WebFamilyModule } from '../resource-overrides';

const PreviewPart = lazy(() => import('./template-preview').then((module) => ({ default: module.TemplatePreview })));

function TemplatePreview(props: ComponentProps<typeof PreviewPart>) {
  return (
    <Suspense fallback={null}>
      <PreviewPart {...props} />
    </Suspense>
  );
}

export const albumTemplateModule: WebFamilyModule = {
  family: 'AlbumTemplate',
  overrides: { rowActions: [{ key: 'preview', label: 'rowAction.preview', Panel: TemplatePreview }] },
};
