/** The NVR page: NVRs turn offline by themselves when no terminal reaches them, so the list reads again at the heartbeat pace. */
import { DEFAULT_HEARTBEAT_SECONDS } from '@campus/contract';
import type { WebFamilyModule } from '../resource-overrides';

export const nvrModule: WebFamilyModule = {
  family: 'Nvr',
  overrides: { refreshSeconds: DEFAULT_HEARTBEAT_SECONDS },
};
