import { formatBusinessDateTime, type SessionInfo } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
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
  userAgent: { zh: '浏览器', en: 'Browser' },
  current: { zh: '当前会话', en: 'This session' },
  end: { zh: '结束', en: 'End' },
  endOthers: { zh: '结束其他会话', en: 'End other sessions' },
  endOthersConfirm: { zh: '结束除当前会话以外的所有登录？', en: 'End every session but this one?' },
  ended: { zh: '已结束 {count} 个会话', en: '{count} session(s) ended' },
  endedOne: { zh: '会话已结束', en: 'Session ended' },
} as const;

/** The caller's sessions (browsers and devices signed in), with this one marked; the others can be ended. */
export function SessionsCard() {
  const text = useLabelText();
  const { modal } = App.useApp();
  const token = useSession()?.token;
  const sessions = useQuery({ queryKey: ['sessions', token], queryFn: sessionApi.list });
  const others = (sessions.data ?? []).filter((session) => !session.isCurrent).length;

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
                await sessions.refetch();
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
        // This session first, then the others by last activity (the server's order).
        dataSource={[...(sessions.data ?? [])].sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent))}
        pagination={false}
        tableLayout="fixed"
        columns={[
          { key: 'createdAt', title: text(TEXT.created), width: 150, render: (_value, row) => formatBusinessDateTime(row.createdAt) },
          { key: 'lastSeenAt', title: text(TEXT.lastSeen), width: 150, render: (_value, row) => formatBusinessDateTime(row.lastSeenAt) },
          { key: 'ip', title: text(TEXT.address), width: 130, dataIndex: 'ip' },
          {
            key: 'userAgent',
            title: text(TEXT.userAgent),
            // A user agent string is long: cut it, the whole of it is in the tooltip.
            ellipsis: true,
            render: (_value, row) => <span title={row.userAgent ?? ''}>{row.userAgent ?? ''}</span>,
          },
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
