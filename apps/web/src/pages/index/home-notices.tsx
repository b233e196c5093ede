/** The notices flagged "show on home page" (appInform), newest first; a click opens the whole text. */
import { NotificationOutlined } from '@ant-design/icons';
import { NOTICE_AUDIENCE_OPTIONS, type HomeNotice } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, List, Modal, Tag, Typography } from 'antd';
import { useState } from 'react';
import { homeApi } from '../../lib/api/home';
import { localTitle, useLocale, useT } from '../../lib/i18n';
import { useSession } from '../../lib/session';

export function HomeNotices() {
  const t = useT();
  const locale = useLocale();
  const token = useSession()?.token ?? null;
  const notices = useQuery({ queryKey: ['homeNotices', token], queryFn: homeApi.getNotices, enabled: token !== null });
  const [open, setOpen] = useState<HomeNotice | null>(null);
  const audienceOf = (value: number) => NOTICE_AUDIENCE_OPTIONS.find((option) => option.value === value);

  return (
    <Card
      title={
        <span>
          <NotificationOutlined /> {t('index.noticesTitle')}
        </span>
      }
      className="index-card"
      loading={notices.isPending}
      data-testid="home-notices"
    >
      {(notices.data ?? []).length === 0 ? (
        <Empty description={t('index.noticesEmpty')} />
      ) : (
        <List
          dataSource={notices.data}
          renderItem={(notice) => {
            const audience = audienceOf(notice.audience);
            return (
              <List.Item className="pending-item is-link" onClick={() => setOpen(notice)} data-notice={notice.id}>
                <List.Item.Meta
                  title={
                    <span>
                      {audience ? <Tag color={audience.color}>{localTitle(audience, locale)}</Tag> : null}
                      {notice.title}
                    </span>
                  }
                  description={
                    <Typography.Paragraph ellipsis={{ rows: 1 }} type="secondary" style={{ marginBottom: 0 }}>
                      {notice.content}
                    </Typography.Paragraph>
                  }
                />
                <Typography.Text type="secondary">
                  {notice.startDate} ~ {notice.endDate}
                </Typography.Text>
              </List.Item>
            );
          }}
        />
      )}
      <Modal open={open !== null} title={open?.title} footer={null} onCancel={() => setOpen(null)}>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{open?.content}</Typography.Paragraph>
        <Typography.Text type="secondary">
          {open?.startDate} ~ {open?.endDate}
        </Typography.Text>
      </Modal>
    </Card>
  );
}
