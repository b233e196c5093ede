/** Reference pickers limited to the school chosen in another field of the same form. */
import type { ResourceDef } from '@campus/contract';
import { Form, type FormInstance } from 'antd';
import { useCallback, useMemo } from 'react';

const NO_SCOPES: Readonly<Record<string, string>> = {};

/** The references declared `within` another field of the row (`{ classId: 'schoolId' }`): their pickers follow that field. */
export function withinReferencesOf(def: Pick<ResourceDef, 'fields'>): Readonly<Record<string, string>> {
  return Object.fromEntries(Object.entries(def.fields).flatMap(([name, field]) => (field.kind === 'reference' && field.within ? [[name, field.within]] : [])));
}

/**
 * For each school-scoped reference (`{ classId: 'schoolId' }`), the school id its picker is limited
 * to: a number, or null while no school is chosen. Also answers the `onValuesChange` handler that
 * clears a dependent pick when its school changes (a class of the old school is no longer valid).
 */
export function useSchoolScope(form: FormInstance, scopes: Readonly<Record<string, string>> = NO_SCOPES, fixedValues: Readonly<Record<string, unknown>> = {}) {
  const sources = useMemo(() => [...new Set(Object.values(scopes))], [scopes]);
  // One watch over the source fields only, so typing elsewhere does not re-render the pickers' parents.
  const watched = Form.useWatch((values: Record<string, unknown>) => sources.map((source) => values?.[source]).join('|'), form) ?? '';

  const schoolIdOf = useCallback(
    (field: string): number | null | undefined => {
      const source = scopes[field];
      if (!source) return undefined;
      const fixed = fixedValues[source];
      if (typeof fixed === 'number') return fixed;
      const raw = watched.split('|')[sources.indexOf(source)];
      const id = raw ? Number(raw) : NaN;
      return Number.isInteger(id) && id > 0 ? id : null;
    },
    [scopes, fixedValues, watched, sources],
  );

  const clearDependents = useCallback(
    (changed: Record<string, unknown>) => {
      for (const [dependent, source] of Object.entries(scopes)) {
        if (source in changed) form.setFieldValue(dependent, undefined);
      }
    },
    [scopes, form],
  );

  return { schoolIdOf, clearDependents };
}
