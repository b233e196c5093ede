/** What the table settings change, shared by the toolbar (which shows them) and the table (which obeys them). */
import { useState } from 'react';
import type { Density } from './table-settings';

/** @example const settings = useTableSettings(); <TableSettings {...settings} /> <Table size={settings.density} /> */
export function useTableSettings() {
  const [hiddenColumns, setHiddenColumns] = useState<ReadonlySet<string>>(() => new Set());
  const [density, setDensity] = useState<Density>('middle');
  return { hiddenColumns, onHiddenColumnsChange: setHiddenColumns, density, onDensityChange: setDensity };
}

export type TableSettingsState = ReturnType<typeof useTableSettings>;
