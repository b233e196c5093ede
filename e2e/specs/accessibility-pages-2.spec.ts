/**
 * Accessibility (issue 26): slice 2 of 3 of the menu pages an admin opens, audited with axe-core
 * (support/audit.ts); a file per slice lets the suite's two workers share the audit.
 */
import { describeMenuAudit } from '../support/audit';

describeMenuAudit(2, 3);
