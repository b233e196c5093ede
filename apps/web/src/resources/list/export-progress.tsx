/** The export's progress dialog: the elapsed time and a cancel button (use-export.tsx fetches it on the first export). */
import { Button, Modal, Progress, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useT } from '../../lib/i18n';

export default function ExportProgress({ title, startedAt, onCancel }: { title: string; startedAt: number; onCancel: () => void }) {
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
