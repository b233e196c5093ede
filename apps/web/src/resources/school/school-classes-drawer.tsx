import { SchoolClass } from '@campus/contract';
import { Drawer } from 'antd';
import { useMemo } from 'react';
import { useWindowWidth } from '../../hooks/use-window-width';
import { useT } from '../../lib/i18n';
import type { ResourceRow } from '../resource-api';
import { ResourcePage } from '../resource-page';

/**
 * A school's grades and classes: the generic page of SchoolClass fixed to that school. SchoolClass is
 * declared on the schoolManage frame, so the school page's buttons govern it.
 */
export function SchoolClassesDrawer({ row, frame, onClose }: { row: ResourceRow; frame: string; onClose: () => void }) {
  const t = useT();
  const windowWidth = useWindowWidth();
  const fixedValues = useMemo(() => ({ schoolId: row.id }), [row.id]);
  return (
    <Drawer open title={t('resource.schoolClasses', { school: String(row.schoolName ?? row.id) })} size={Math.min(1100, windowWidth - 120)} onClose={onClose} destroyOnHidden>
      <ResourcePage def={SchoolClass} frame={frame} fixedValues={fixedValues} isEmbedded />
    </Drawer>
  );
}
