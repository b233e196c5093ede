import { formatBusinessDateTime, type SessionInfo } from '@campus/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { App, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { sessionApi } from '../../lib/api/permission';
import { useT } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { showToast } from '../../lib/toast';

/** Sessions per page: a handful fit the card; someone signed in on many devices pages through them. */
const SESSIONS_PAGE_SIZE = 10;

/** The caller's sessions (browsers and devices signed in), with this one marked; the others can be ended. */
export function SessionsCard() {
  const t = useT();
  const { modal } = App.useApp();
  const token = useSession()?.token;
  const [page, setPage] = useState({ index: 1, size: SESSIONS_PAGE_SIZE });
  const sessions = useQuery({
    queryKey: ['sessions', token, page.index, page.size],
    queryFn: () => sessionApi.list(page.index, page.size),
    // The table keeps the page shown while the next one loads, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
  // Every session but this one; `total` counts them all, across pages.
  const others = Math.max(0, (sessions.data?.total ?? 0) - 1);
  const unknown = t('sessions.unknown');
  // "iOS 17.5 (mobile)": the device type only where it is not a computer.
  const systemText = (row: SessionInfo) => {
    const system = row.system ?? unknown;
    return row.device === 'mobile' || row.device === 'tablet' ? `${system} (${t(`sessions.${row.device}` as const)})` : system;
  };

  const endOne = async (id: number) => {
    await sessionApi.end(id);
    showToast('success', t('sessions.endedOne'));
    await sessions.refetch();
  };

  return (
    <Card
      title={t('sessions.title')}
      extra={
        <Button
          danger
          disabled={others === 0}
          onClick={() =>
            modal.confirm({
              title: t('sessions.endOthers'),
              content: t('sessions.endOthersConfirm'),
              okType: 'danger',
              onOk: async () => {
                const { ended } = await sessionApi.endOthers();
                showToast('success', t('sessions.ended', { count: ended }));
                // Only this session is left: it is on the first page.
                if (page.index === 1) await sessions.refetch();
                else setPage((current) => ({ ...current, index: 1 }));
              },
            })
          }
        >
          {t('sessions.endOthers')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('sessions.help')}</Typography.Paragraph>
      <Table<SessionInfo>
        rowKey="id"
        size="small"
        loading={sessions.isFetching}
        // The server answers this session first, then the others by last activity.
        dataSource={sessions.data?.items ?? []}
        pagination={{
          current: page.index,
          pageSize: page.size,
          total: sessions.data?.total ?? 0,
          hideOnSinglePage: true,
          showSizeChanger: false,
          showTotal: (count) => t('sessions.total', { count }),
          onChange: (index, size) => setPage({ index, size }),
        }}
        tableLayout="fixed"
        columns={[
          { key: 'createdAt', title: t('sessions.created'), width: 150, render: (_value, row) => formatBusinessDateTime(row.createdAt) },
          { key: 'lastSeenAt', title: t('sessions.lastSeen'), width: 150, render: (_value, row) => formatBusinessDateTime(row.lastSeenAt) },
          { key: 'ip', title: t('sessions.address'), width: 130, dataIndex: 'ip' },
          {
            key: 'browser',
            title: t('sessions.browser'),
            width: 140,
            ellipsis: true,
            // The words are read from the User-Agent header; the whole header is in the tooltip.
            render: (_value, row) => <span title={row.userAgent ?? ''}>{row.browser ?? unknown}</span>,
          },
          { key: 'system', title: t('sessions.system'), ellipsis: true, render: (_value, row) => <span title={row.userAgent ?? ''}>{systemText(row)}</span> },
          {
            key: 'actions',
            width: 110,
            render: (_value, row) =>
              row.isCurrent ? (
                <Tag color="green">{t('sessions.current')}</Tag>
              ) : (
                <Space>
                  <Button size="small" type="link" danger onClick={() => void endOne(row.id).catch(() => undefined)}>
                    {t('sessions.end')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
    </Card>
  );
}
