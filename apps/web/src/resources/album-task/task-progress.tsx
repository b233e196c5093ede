import type { AlbumChildProgress } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Drawer, Progress, Table, Typography } from 'antd';
import { useWindowWidth } from '../../hooks/use-window-width';
import { useT } from '../../lib/i18n';
import { resourceApi, type ResourceRow } from '../shared/resource-api';

/** Photos collected per child of the task's class against the template's photo slots. */
export function TaskProgress({ row, frame, onClose }: { row: ResourceRow; frame: string; onClose: () => void }) {
  const t = useT();
  const windowWidth = useWindowWidth();
  const task = useQuery({ queryKey: ['albumTaskProgress', row.id], queryFn: () => resourceApi('AlbumTask', frame).get(row.id) });
  const children = (task.data?.childProgress as AlbumChildProgress[] | undefined) ?? [];
  return (
    <Drawer open title={t('album.progressTitle', { name: String(row.name ?? row.id) })} size={Math.min(640, windowWidth - 48)} onClose={onClose} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('album.progressHint', { needed: Number(task.data?.photosNeeded ?? 0) })}</Typography.Paragraph>
      <Table<AlbumChildProgress>
        rowKey="studentId"
        size="small"
        loading={task.isLoading}
        dataSource={children}
        pagination={false}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('album.child') },
          { key: 'photos', title: t('album.collected'), render: (_, child) => `${child.photos} / ${child.needed}`, width: 120 },
          {
            key: 'bar',
            title: t('album.progress'),
            render: (_, child) => <Progress percent={child.needed ? Math.min(100, Math.round((child.photos / child.needed) * 100)) : 0} size="small" status={child.photos >= child.needed ? 'success' : 'normal'} />,
          },
        ]}
      />
    </Drawer>
  );
}
