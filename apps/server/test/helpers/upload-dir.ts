import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where test apps keep uploads on both databases, and where the template's demo seed puts its pictures and songs. */
export const TEST_UPLOAD_DIR = join(tmpdir(), 'campus-ops-uploads');
