import { LoginLog } from '@campus/contract';
import { LogPage } from '../../resources/log/log-page';

/** The login log: every attempt, newest first, as the generic log list of the LoginLog family. */
export function LoginLogPanel() {
  return <LogPage def={LoginLog} frame="jurisdictionManage" isEmbedded />;
}
