/** Export of the current filters: a progress modal with the elapsed time, then the browser's save. */
import { Suspense, lazy, useRef, useState } from 'react';
import { useLocale, useT } from '../../lib/i18n';
import { saveFile } from '../../lib/request';
import { showToast } from '../../lib/toast';
import type { FilterPayload } from './filter-payload';
import type { ResourceApi, SortState } from '../shared/resource-api';

// The progress dialog is fetched with the first export, not with every list.
const ExportProgress = lazy(() => import('./export-progress'));

/**
 * @example const exporter = useExport(api, 'School'); <Button onClick={() => exporter.run(filters)} /> {exporter.progress}
 */
export function useExport(api: Pick<ResourceApi, 'exportFile'>, familyLabel: string) {
  const t = useT();
  const locale = useLocale();
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const controllerRef = useRef<AbortController | null>(null);

  const run = async (filters: FilterPayload & SortState) => {
    const controller = new AbortController();
    controllerRef.current = controller;
    setStartedAt(Date.now());
    try {
      const file = await api.exportFile(filters, locale === 'en' ? 'en' : 'zh', controller.signal);
      saveFile(file);
      showToast('success', t('resource.exportDone', { filename: file.filename }));
    } catch (error) {
      // A cancelled export is the user's choice; other failures were toasted by the request client.
      if (!controller.signal.aborted) console.error('export failed', error);
    } finally {
      controllerRef.current = null;
      setStartedAt(null);
    }
  };

  const progress =
    startedAt === null ? null : (
      <Suspense fallback={null}>
        <ExportProgress title={t('resource.exporting', { family: familyLabel })} startedAt={startedAt} onCancel={() => controllerRef.current?.abort()} />
      </Suspense>
    );
  return { run, isRunning: startedAt !== null, progress };
}
