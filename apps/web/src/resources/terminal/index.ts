/**
 * What the terminal page changes in the generic page: it reads itself again every 30 s while
 * visible, so a terminal that stops calling turns offline on screen without a reload. Offline
 * terminals are left out by the server for callers without `canShowOffline`. The platform-wide
 * terminal settings (heartbeat interval, success similarity) sit above the list.
 */
import { DEFAULT_HEARTBEAT_SECONDS } from '@campus/contract';
import type { ResourceOverrides } from '../resource-overrides';
import { TerminalSettingsCard } from './terminal-settings-card';

export const terminalOverrides: ResourceOverrides = {
  refreshSeconds: DEFAULT_HEARTBEAT_SECONDS,
  header: TerminalSettingsCard,
};
