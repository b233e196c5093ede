/** The edited row with its lines: Search leaves an order's lines out, so the drawer reads the row by Get. */
import type { ResourceDef } from '@campus/contract';
import { useEffect, useRef, useState } from 'react';
import type { ResourceApi, ResourceRow } from '../shared/resource-api';

/** Whether a family has a `lines` field the row lacks (a row from Search). */
function lacksLines(def: ResourceDef, row: ResourceRow | null): row is ResourceRow {
  return row !== null && Object.entries(def.fields).some(([name, field]) => field.kind === 'lines' && row[name] === undefined);
}

/**
 * On edit of a family with lines, reads the full row once and hands it to `onLoaded`; answers
 * whether it is still being read. A family without lines costs nothing.
 */
export function useRowWithLines(def: ResourceDef, api: ResourceApi, row: ResourceRow | null, onLoaded: (row: ResourceRow) => void): boolean {
  const needsRead = lacksLines(def, row);
  const [isReading, setIsReading] = useState(needsRead);
  const latestOnLoaded = useRef(onLoaded);
  latestOnLoaded.current = onLoaded;
  const id = needsRead ? row.id : null;
  useEffect(() => {
    if (id === null) return;
    let isCurrent = true;
    setIsReading(true);
    api
      .get(id)
      .then((fresh) => isCurrent && latestOnLoaded.current(fresh))
      // The request client has shown the failure; the drawer stays usable without the lines.
      .catch(() => undefined)
      .finally(() => isCurrent && setIsReading(false));
    return () => {
      isCurrent = false;
    };
  }, [api, id]);
  return isReading;
}
