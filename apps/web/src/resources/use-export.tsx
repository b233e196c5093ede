/** Export of the current filters: a progress modal with the elapsed time, then the browser's save. */
import { Button, Modal, Progress, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useLocale, useT } from '../lib/i18n';
import { saveFile } from '../lib/request';
import { showToast } from '../lib/toast';
import type { FilterPayload } from './filter-payload';
import type { ResourceApi, SortState } from './resource-api';

function ExportProgress({ title, startedAt, onCancel }: { title: string; startedAt: number; onCancel: () => void }) {
  const t = useT();
  const [now, setNow] = useState(startedAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Modal open title={title} closable={false} mask={{ closable: false }} footer={<Button onClick={onCancel}>{t('resource.exportCancel')}</Button>}>
      {/* The server streams the workbook without announcing its size: the bar can only say "working". */}
      <Progress percent={100} status="active" showInfo={false} />
      <Typography.Text type="secondary">{t('resource.exportElapsed', { seconds: Math.floor((now - startedAt) / 1000) })}</Typography.Text>
    </Modal>
  );
}

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
      <ExportProgress title={t('resource.exporting', { family: familyLabel })} startedAt={startedAt} onCancel={() => controllerRef.current?.abort()} />
    );
  return { run, isRunning: startedAt !== null, progress };
}
