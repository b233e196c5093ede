import {
  AccountBookOutlined,
  AppstoreOutlined,
  DatabaseOutlined,
  HomeOutlined,
  SettingOutlined,
  ShopOutlined,
  TeamOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/** The contract names each group's icon; this maps the names to antd icons. */
const ICONS: Record<string, ComponentType> = {
  home: HomeOutlined,
  team: TeamOutlined,
  shop: ShopOutlined,
  appstore: AppstoreOutlined,
  database: DatabaseOutlined,
  tool: ToolOutlined,
  'account-book': AccountBookOutlined,
  setting: SettingOutlined,
};

export function GroupIcon({ name }: { name: string }) {
  const Icon = ICONS[name] ?? AppstoreOutlined;
  return <Icon />;
}
