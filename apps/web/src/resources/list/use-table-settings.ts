/**
 * What the table settings change, shared by the toolbar (which shows them) and the table (which obeys
 * them): shown columns, their order, widths and pins, density and page size. Saved on the server per
 * user and page (issue 11), so they follow the user to another browser; a page without a key (a
 * drawer's child list) keeps them for its life only.
 */
import type { ColumnPin, PagePreferences, TableDensity, TableSettings } from '@campus/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { preferencesApi, preferencesKey, usePagePreferences } from '../shared/preferences-api';

export const DEFAULT_TABLE_SETTINGS: TableSettings = { hidden: [], order: [], widths: {}, pinned: {}, density: 'middle' };

/** Changes in a burst (dragging a column edge) are saved once they settle. */
export const SAVE_DELAY_MS = 400;

/** Moves `key` one place earlier (-1) or later (+1) among `keys` in the saved order. */
export function movedOrder(order: readonly string[], keys: readonly string[], key: string, delta: -1 | 1): string[] {
  const current = [...order.filter((one) => keys.includes(one)), ...keys.filter((one) => !order.includes(one))];
  const from = current.indexOf(key);
  const to = from + delta;
  if (from === -1 || to < 0 || to >= current.length) return current;
  [current[from], current[to]] = [current[to]!, current[from]!];
  return current;
}

/** @example const settings = useTableSettings('schoolManage.School'); <TableSettings {...settings} /> <Table size={settings.density} /> */
export function useTableSettings(page: string | null = null) {
  const queryClient = useQueryClient();
  const preferences = usePagePreferences(page);
  const [local, setLocal] = useState<TableSettings | null>(null);
  const current = local ?? preferences.data?.table ?? DEFAULT_TABLE_SETTINGS;
  const currentRef = useRef(current);
  currentRef.current = current;
  const pendingSave = useRef<{ timer: ReturnType<typeof setTimeout>; run: () => void } | null>(null);

  const save = useCallback(
    (next: TableSettings) => {
      if (page === null) return;
      if (pendingSave.current) clearTimeout(pendingSave.current.timer);
      const run = () => {
        pendingSave.current = null;
        preferencesApi.saveTable(page, next).then(
          (answer) => queryClient.setQueryData(preferencesKey(page), answer),
          () => undefined, // The request client has shown the failure; the layout stays as chosen here.
        );
      };
      pendingSave.current = { timer: setTimeout(run, SAVE_DELAY_MS), run };
    },
    [page, queryClient],
  );
  // A tab closed within the delay still saves its last change.
  useEffect(
    () => () => {
      const pending = pendingSave.current;
      if (pending) {
        clearTimeout(pending.timer);
        pending.run();
      }
    },
    [],
  );

  const update = useCallback(
    (change: Partial<TableSettings>) => {
      const next = { ...currentRef.current, ...change };
      currentRef.current = next;
      setLocal(next);
      save(next);
    },
    [save],
  );

  const reset = useCallback(async () => {
    if (pendingSave.current) clearTimeout(pendingSave.current.timer);
    pendingSave.current = null;
    setLocal(null);
    if (page === null) return;
    queryClient.setQueryData(preferencesKey(page), (old: PagePreferences | undefined) => (old ? { ...old, table: null } : old));
    const answer = await preferencesApi.resetTable(page);
    queryClient.setQueryData(preferencesKey(page), answer);
  }, [page, queryClient]);

  const hiddenColumns = useMemo(() => new Set(current.hidden), [current.hidden]);
  return {
    /** False until the saved settings are known (a list waits for its saved page size). */
    isLoaded: page === null || !preferences.isPending,
    hiddenColumns,
    onHiddenColumnsChange: (hidden: ReadonlySet<string>) => update({ hidden: [...hidden] }),
    density: current.density,
    onDensityChange: (density: TableDensity) => update({ density }),
    order: current.order,
    widths: current.widths,
    pinned: current.pinned,
    pageSize: current.pageSize,
    setPageSize: (pageSize: number) => update({ pageSize }),
    moveColumn: (keys: readonly string[], key: string, delta: -1 | 1) => update({ order: movedOrder(current.order, keys, key, delta) }),
    setWidth: (key: string, width: number) => update({ widths: { ...current.widths, [key]: Math.round(width) } }),
    setPin: (key: string, pin: ColumnPin | null) => {
      const pinned = { ...current.pinned };
      if (pin) pinned[key] = pin;
      else delete pinned[key];
      update({ pinned });
    },
    /** Back to the declaration's layout, here and on the server. */
    reset,
    isCustomised: local !== null || Boolean(preferences.data?.table),
  };
}

export type TableSettingsState = ReturnType<typeof useTableSettings>;
