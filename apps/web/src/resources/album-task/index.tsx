/** The album task page: each child's collection progress in a drawer, and the books made from it. */
import { Suspense, lazy, type ComponentProps } from 'react';
import type { WebFamilyModule } from '../resource-overrides';

const ProgressPart = lazy(() => import('./task-progress').then((module) => ({ default: module.TaskProgress })));

function TaskProgress(props: ComponentProps<typeof ProgressPart>) {
  return (
    <Suspense fallback={null}>
      <ProgressPart {...props} />
    </Suspense>
  );
}

export const albumTaskModule: WebFamilyModule = {
  family: 'AlbumTask',
  overrides: { rowActions: [{ key: 'progress', label: 'rowAction.progress', Panel: TaskProgress }] },
};
