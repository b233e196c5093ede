/**
 * What the terminal page changes in the generic page: it reads itself again every 30 s while
 * visible, so a terminal that stops calling turns offline on screen without a reload. Offline
 * terminals are left out by the server for callers without `canShowOffline`. The platform-wide
 * terminal settings above the list are a declared setting (TerminalSettingsSetting).
 */
import { DEFAULT_HEARTBEAT_SECONDS } from '@campus/contract';
import type { WebFamilyModule } from '../resource-overrides';

export const terminalModule: WebFamilyModule = {
  family: 'Terminal',
  overrides: { refreshSeconds: DEFAULT_HEARTBEAT_SECONDS },
};
