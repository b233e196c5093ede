import { formatBusinessDateTime, type SessionInfo } from '@campus/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { App, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { useLabelText } from '../../hooks/use-label-text';
import { sessionApi } from '../../lib/api/permission';
import { useSession } from '../../lib/session';
import { showToast } from '../../lib/toast';

const TEXT = {
  title: { zh: '登录设备', en: 'Active sessions' },
  help: { zh: '修改密码后，其他设备上的登录会自动结束。', en: 'Changing your password ends the sessions on your other devices.' },
  created: { zh: '登录时间', en: 'Signed in' },
  lastSeen: { zh: '最近活动', en: 'Last seen' },
  address: { zh: '地址', en: 'Address' },
  browser: { zh: '浏览器', en: 'Browser' },
  system: { zh: '系统', en: 'System' },
  unknown: { zh: '未知', en: 'Unknown' },
  mobile: { zh: '手机', en: 'mobile' },
  tablet: { zh: '平板', en: 'tablet' },
  total: { zh: '共 {count} 个会话', en: '{count} sessions' },
  current: { zh: '当前会话', en: 'This session' },
  end: { zh: '结束', en: 'End' },
  endOthers: { zh: '结束其他会话', en: 'End other sessions' },
  endOthersConfirm: { zh: '结束除当前会话以外的所有登录？', en: 'End every session but this one?' },
  ended: { zh: '已结束 {count} 个会话', en: '{count} session(s) ended' },
  endedOne: { zh: '会话已结束', en: 'Session ended' },
} as const;

/** Sessions per page: a handful fit the card; someone signed in on many devices pages through them. */
const SESSIONS_PAGE_SIZE = 10;

/** The caller's sessions (browsers and devices signed in), with this one marked; the others can be ended. */
export function SessionsCard() {
  const text = useLabelText();
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
  const unknown = text(TEXT.unknown);
  // "iOS 17.5 (mobile)": the device type only where it is not a computer.
  const systemText = (row: SessionInfo) => {
    const system = row.system ?? unknown;
    return row.device === 'mobile' || row.device === 'tablet' ? `${system} (${text(TEXT[row.device])})` : system;
  };

  const endOne = async (id: number) => {
    await sessionApi.end(id);
    showToast('success', text(TEXT.endedOne));
    await sessions.refetch();
  };

  return (
    <Card
      title={text(TEXT.title)}
      extra={
        <Button
          danger
          disabled={others === 0}
          onClick={() =>
            modal.confirm({
              title: text(TEXT.endOthers),
              content: text(TEXT.endOthersConfirm),
              okType: 'danger',
              onOk: async () => {
                const { ended } = await sessionApi.endOthers();
                showToast('success', text(TEXT.ended, { count: ended }));
                // Only this session is left: it is on the first page.
                if (page.index === 1) await sessions.refetch();
                else setPage((current) => ({ ...current, index: 1 }));
              },
            })
          }
        >
          {text(TEXT.endOthers)}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{text(TEXT.help)}</Typography.Paragraph>
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
          showTotal: (count) => text(TEXT.total, { count }),
          onChange: (index, size) => setPage({ index, size }),
        }}
        tableLayout="fixed"
        columns={[
          { key: 'createdAt', title: text(TEXT.created), width: 150, render: (_value, row) => formatBusinessDateTime(row.createdAt) },
          { key: 'lastSeenAt', title: text(TEXT.lastSeen), width: 150, render: (_value, row) => formatBusinessDateTime(row.lastSeenAt) },
          { key: 'ip', title: text(TEXT.address), width: 130, dataIndex: 'ip' },
          {
            key: 'browser',
            title: text(TEXT.browser),
            width: 140,
            ellipsis: true,
            // The words are read from the User-Agent header; the whole header is in the tooltip.
            render: (_value, row) => <span title={row.userAgent ?? ''}>{row.browser ?? unknown}</span>,
          },
          { key: 'system', title: text(TEXT.system), ellipsis: true, render: (_value, row) => <span title={row.userAgent ?? ''}>{systemText(row)}</span> },
          {
            key: 'actions',
            width: 110,
            render: (_value, row) =>
              row.isCurrent ? (
                <Tag color="green">{text(TEXT.current)}</Tag>
              ) : (
                <Space>
                  <Button size="small" type="link" danger onClick={() => void endOne(row.id).catch(() => undefined)}>
                    {text(TEXT.end)}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
    </Card>
  );
}
