/**
 * The fields a page does not show: those its view fixes, those the surrounding page fixes, those the
 * caller may not set (in forms), and those a family's override hides for the caller.
 */
import { isUserType, type ResourceDef } from '@campus/contract';
import { useMemo } from 'react';
import { useLoginUser } from '../../hooks/use-login-user';
import { useVisibilityProbes } from '../../hooks/use-visibility-probes';
import type { ResourceOverrides } from '../resource-overrides';

export interface HiddenFields {
  /** Left out of the filters, the table and the form. */
  listed: ReadonlySet<string>;
  /** Left out of the add/edit form: the listed ones and those the caller's user type does not set. */
  form: ReadonlySet<string>;
}

/** @example const hidden = useHiddenFields(School, 'schoolManage', {}, schoolOverrides); <FilterBar hiddenFields={hidden.listed} /> */
export function useHiddenFields(
  def: ResourceDef,
  frame: string,
  fixedValues: Readonly<Record<string, unknown>>,
  overrides?: Pick<ResourceOverrides, 'hiddenFields'>,
): HiddenFields {
  const probes = useVisibilityProbes();
  const listed = useMemo(() => {
    const view = def.views.find((candidate) => candidate.frame === frame);
    return new Set([...Object.keys(view?.fixed ?? {}), ...Object.keys(fixedValues), ...(overrides?.hiddenFields?.(probes) ?? [])]);
  }, [def, frame, fixedValues, overrides, probes]);
  const loginType = useLoginUser().data?.type;
  const userType = isUserType(loginType) ? loginType : undefined;
  const form = useMemo(() => {
    // The caller may not set these (the declaration's `probe` and `ownedBy`): the server would refuse or ignore them.
    const notTheCallers = Object.entries(def.fields).filter(([, field]) => (field.probe && !probes?.[field.probe]) || (field.ownedBy && userType !== 'company'));
    return new Set([...listed, ...notTheCallers.map(([name]) => name)]);
  }, [def, listed, userType, probes]);
  return { listed, form };
}
