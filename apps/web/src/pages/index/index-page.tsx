import { AppstoreOutlined, CalendarOutlined, InboxOutlined, RightOutlined } from '@ant-design/icons';
import { Badge, Card, Descriptions, Empty, List, Tag, Typography } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { DATE_FORMAT, type HomeWidget, PENDING_LIST_FILTERS, USER_TYPE_LABELS, isUserType, type NavigationFrame, formatBusinessDateTime } from '@campus/contract';
import { useBadgeCounts, useNavigationTree, useSignCardMode } from '../../hooks/use-navigation';
import { badgeCountOf, isFrameVisible } from '../../lib/visible-menu';
import { useLoginUser } from '../../hooks/use-login-user';
import { useOpenPage } from '../../hooks/use-open-page';
import { localTitle, useLocale, useT } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { isPageRegistered } from '../page-names';
import { businessNow } from '../../resources/shared/field-values';
import { HomeNotices } from './home-notices';
import { HomeFigures } from './home-figures';
import { useHomeWidgets } from './use-home-widgets';
import './index-page.css';

const titlesOf = (frame: NavigationFrame) => ({ zh: frame.title, en: frame.titleEn });

/**
 * The home tab: who and when, then the widgets the caller chose on homeCustomization, in its order:
 * today's figures, pending work (badges), the account, notices and the pages they can open.
 */
export default function IndexPage() {
  const t = useT();
  const locale = useLocale();
  const session = useSession();
  const openPage = useOpenPage();
  const { data: tree } = useNavigationTree();
  const { data: badgeCounts } = useBadgeCounts();
  const signCardMode = useSignCardMode();
  const userInfo = useLoginUser();
  const widgets = useHomeWidgets();

  const today = businessNow();
  const frames = useMemo(() => tree?.flatMap((group) => group.children).filter((frame) => frame.authorised) ?? [], [tree]);
  const isOpenable = (frame: NavigationFrame) => isFrameVisible(frame, { isPageRegistered, signCardMode });
  const pending = frames
    .map((frame) => ({ frame, count: badgeCountOf(frame, badgeCounts) }))
    .filter((item) => item.count > 0 && item.frame.badge !== null);
  const shortcuts = frames.filter((frame) => frame.index !== 'index' && isOpenable(frame));

  const userType = userInfo.data?.type;
  const userName = userInfo.data?.name || session?.userName || '';

  const widgetViews: Record<HomeWidget, ReactNode> = {
    figures: <HomeFigures key="figures" />,
    pending: (
      <Card key="pending" title={t('index.pendingTitle')} className="index-card" data-testid="pending-work">
        {pending.length === 0 ? (
          <Empty image={<InboxOutlined className="index-empty-icon" />} description={t('index.pendingEmpty')} />
        ) : (
          <List
            dataSource={pending}
            renderItem={({ frame, count }) => {
              const canOpen = isOpenable(frame);
              return (
                <List.Item
                  className={canOpen ? 'pending-item is-link' : 'pending-item'}
                  // The list opens filtered to the rows the badge counts, where the badge says which.
                  onClick={canOpen ? () => openPage(frame.index, PENDING_LIST_FILTERS[frame.index]) : undefined}
                  extra={canOpen ? <RightOutlined /> : <Tag>{t('index.pendingNotBuilt')}</Tag>}
                >
                  <List.Item.Meta
                    title={localTitle(titlesOf(frame), locale)}
                    description={frame.badge ? t(`badge.${frame.badge}`) : null}
                  />
                  <Badge count={count} overflowCount={999} />
                </List.Item>
              );
            }}
          />
        )}
      </Card>
    ),
    account: (
      <Card key="account" title={t('index.accountTitle')} className="index-card" loading={userInfo.isPending}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('field.loginName')}>{userInfo.data?.loginName ?? session?.userName}</Descriptions.Item>
          <Descriptions.Item label={t('index.accountType')}>
            {isUserType(userType) ? localTitle(USER_TYPE_LABELS[userType], locale) : (userType ?? '—')}
          </Descriptions.Item>
          <Descriptions.Item label={t('index.frameCount')}>{t('index.frameCountValue', { count: session?.frameIds.length ?? 0 })}</Descriptions.Item>
          <Descriptions.Item label={t('index.lastLogin')}>
            {userInfo.data?.lastLoginAt ? formatBusinessDateTime(userInfo.data.lastLoginAt) : '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('index.tokenTime')}>
            {session?.tokenTime && !Number.isNaN(Date.parse(session.tokenTime)) ? formatBusinessDateTime(session.tokenTime) : '—'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
    ),
    notices: <HomeNotices key="notices" />,
    shortcuts: shortcuts.length > 0 && (

        <Card key="shortcuts" title={t('index.shortcutsTitle')} className="index-card">
          <div className="shortcut-grid">
            {shortcuts.map((frame) => (
              <button key={frame.index} type="button" className="shortcut" onClick={() => openPage(frame.index)} data-shortcut={frame.index}>
                <AppstoreOutlined className="shortcut-icon" />
                <span>{localTitle(titlesOf(frame), locale)}</span>
              </button>
            ))}
          </div>
        </Card>
    ),
  };

  return (
    <div className="page-stack index-page">
      <Card className="welcome-card" variant="borderless">
        <div className="welcome-row">
          <div>
            <Typography.Title level={3} className="welcome-title">
              {t('index.greeting', { name: userName })}
            </Typography.Title>
            <Typography.Text className="welcome-date" data-testid="today">
              <CalendarOutlined /> {t('index.today', { date: today.format(DATE_FORMAT), weekday: today.locale(locale === 'en' ? 'en' : 'zh-cn').format('dddd') })}
            </Typography.Text>
          </div>
          {session?.schoolName && session.schoolId > 0 ? <Tag className="welcome-school">{t('index.school', { school: session.schoolName })}</Tag> : null}
        </div>
      </Card>

      {widgets.filter((widget) => widget.visible).map((widget) => widgetViews[widget.key])}
    </div>
  );
}
