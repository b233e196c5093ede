import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Badge, Empty, Menu, Skeleton, Tooltip } from 'antd';
import { localTitle, useLocale, useT } from '../../lib/i18n';
import { GroupIcon } from '../navigation/group-icon';
import type { MenuGroupView } from '../../lib/visible-menu';
import { BrandMark } from '../../components/brand-mark';

interface SidePanelProps {
  menu: readonly MenuGroupView[];
  isLoading: boolean;
  selectedGroup: MenuGroupView | undefined;
  onSelectGroup: (groupId: number) => void;
  activeIndex: string;
  onOpenFrame: (index: string) => void;
  /** Collapsed, only the group column shows: wide tables get the room (issue 11). */
  isCollapsed: boolean;
  onCollapsedChange: (isCollapsed: boolean) => void;
}

const titlesOf = (entry: { title: string; titleEn: string }) => ({ zh: entry.title, en: entry.titleEn });

/**
 * The side panel (SIDE_PANEL_WIDTH wide): the column of the 8 groups, and beside it the
 * second-level menu of the selected group. Badges: a count per page, their sum per group.
 */
export function SidePanel({ menu, isLoading, selectedGroup, onSelectGroup, activeIndex, onOpenFrame, isCollapsed, onCollapsedChange }: SidePanelProps) {
  const t = useT();
  const locale = useLocale();
  const toggleText = t(isCollapsed ? 'menu.expand' : 'menu.collapse');

  return (
    <aside className={`side-panel${isCollapsed ? ' is-collapsed' : ''}`}>
      <div className="side-brand">
        <BrandMark size={28} />
        <span className="side-brand-name">{t('app.shortName')}</span>
      </div>
      <div className="side-columns">
        <nav className="group-column" aria-label="groups">
          {menu.map((view) => {
            const title = localTitle(titlesOf(view.group), locale);
            const isSelected = view.group.id === selectedGroup?.group.id;
            return (
              <Tooltip key={view.group.id} title={title} placement="right" mouseEnterDelay={0.6}>
                <button
                  type="button"
                  className={`group-item${isSelected ? ' is-selected' : ''}`}
                  aria-pressed={isSelected}
                  data-group={view.group.key}
                  onClick={() => {
                    onSelectGroup(view.group.id);
                    // A group's pages are in the second column: choosing a group shows it again.
                    if (isCollapsed) onCollapsedChange(false);
                  }}
                >
                  <Badge count={view.badgeCount} size="small" offset={[4, -2]} overflowCount={99}>
                    <span className="group-item-icon">
                      <GroupIcon name={view.group.icon} />
                    </span>
                  </Badge>
                  <span className="group-item-title">{title}</span>
                </button>
              </Tooltip>
            );
          })}
          {isLoading && menu.length === 0 && <Skeleton active paragraph={{ rows: 4 }} title={false} className="group-skeleton" />}
          <Tooltip title={toggleText} placement="right">
            <button type="button" className="side-collapse-toggle" aria-label={toggleText} aria-expanded={!isCollapsed} onClick={() => onCollapsedChange(!isCollapsed)}>
              {isCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            </button>
          </Tooltip>
        </nav>
        <nav className="frame-column" aria-label="pages">
          {selectedGroup ? (
            <>
              <div className="frame-column-title">{localTitle(titlesOf(selectedGroup.group), locale)}</div>
              <Menu
                mode="inline"
                className="frame-menu"
                selectedKeys={[activeIndex]}
                onClick={({ key }) => onOpenFrame(key)}
                items={selectedGroup.items.map((item) => ({
                  key: item.frame.index,
                  label: (
                    <span className="frame-item" data-frame={item.frame.index}>
                      <span className="frame-item-title">{localTitle(titlesOf(item.frame), locale)}</span>
                      {item.badgeCount > 0 && <Badge count={item.badgeCount} size="small" overflowCount={99} />}
                    </span>
                  ),
                }))}
              />
            </>
          ) : isLoading ? (
            <Skeleton active className="frame-skeleton" />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('menu.empty')} />
          )}
        </nav>
      </div>
    </aside>
  );
}
