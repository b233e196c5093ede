/**
 * The image cell of a list, downloaded when first shown. Apart from deferred-parts.tsx: the columns
 * import it, and the record view those parts load imports the columns.
 */
import { Suspense, lazy, type ComponentProps } from 'react';

const ImageThumbPart = lazy(() => import('./image-thumb').then((module) => ({ default: module.ImageThumb })));

/**
 * An image cell (antd's Image and its preview, ≈ 10 kB): downloaded with the first list that shows an
 * image column; until then the cell keeps the thumbnail's place.
 */
export function ImageThumb(props: ComponentProps<typeof ImageThumbPart>) {
  return (
    <Suspense fallback={<span className="image-thumb-placeholder" />}>
      <ImageThumbPart {...props} />
    </Suspense>
  );
}
