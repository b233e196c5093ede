import { DownOutlined, IdcardOutlined, LogoutOutlined } from '@ant-design/icons';
import { App, Avatar, Dropdown } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useOpenPage } from '../../hooks/use-open-page';
import { useT } from '../../lib/i18n';
import { logOut } from '../../lib/log-out';
import { useSession } from '../../lib/session';
import { showToast } from '../../lib/toast';

/** Avatar with personal information and log-out; log-out asks first, with the seed's exact texts. */
export function UserMenu() {
  const t = useT();
  const { modal } = App.useApp();
  const session = useSession();
  const navigate = useNavigate();
  const openPage = useOpenPage();
  const queryClient = useQueryClient();
  const userName = session?.userName ?? '';

  const confirmLogOut = () => {
    modal.confirm({
      title: t('logout.title'),
      content: t('logout.content'),
      okText: t('logout.ok'),
      cancelText: t('logout.cancel'),
      onOk: async () => {
        await logOut();
        queryClient.clear();
        navigate('/login', { replace: true });
      },
      onCancel: () => showToast('info', t('logout.cancelled')),
    });
  };

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [
          {
            key: 'who',
            type: 'group',
            label: (
              <span className="user-menu-who">
                <strong>{userName}</strong>
                {session?.schoolName && session.schoolId > 0 ? <span>{session.schoolName}</span> : null}
              </span>
            ),
          },
          { type: 'divider' },
          { key: 'personalInformation', icon: <IdcardOutlined />, label: t('user.personalInformation') },
          { key: 'logout', icon: <LogoutOutlined />, label: t('user.logout'), danger: true },
        ],
        onClick: ({ key }) => (key === 'logout' ? confirmLogOut() : openPage('personalInformation')),
      }}
    >
      <button type="button" className="user-menu-trigger" data-testid="user-menu" aria-label={userName}>
        <Avatar size={26} className="user-avatar">
          {userName.slice(0, 1).toUpperCase()}
        </Avatar>
        <DownOutlined className="user-menu-caret" />
      </button>
    </Dropdown>
  );
}
