/**
 * How an operation-log `action` reads for people. The server stores a code: `add`, `update`,
 * `delete`, `move`, `set:<field>` (a toggle), or a transition / action verb in lower camel case
 * (engine/workflow.ts operationName). The code is shown by its label, in the row family's words.
 */
import { RESOURCES, type EnumOption, type ResourceDef } from '@campus/contract';
import type { Locale } from '../../lib/i18n';
import { labelText } from '../shared/labels';

type Text = { zh: string; en: string };

/**
 * Actions every family may write, whatever its declaration. Labels in both languages, not message keys:
 * they join the families' declared labels as the options of the action filter, which hold both.
 */
const CORE_ACTIONS: Record<string, Text> = {
  add: { zh: '新增', en: 'Add' },
  update: { zh: '修改', en: 'Edit' },
  delete: { zh: '删除', en: 'Delete' },
  move: { zh: '移动', en: 'Move' },
  ship: { zh: '发货', en: 'Ship' },
  updateAdmin: { zh: '修改学校管理员', en: 'Update school admin' },
  settings: { zh: '修改设置', en: 'Change settings' },
};

const lowerFirst = (verb: string) => verb.charAt(0).toLowerCase() + verb.slice(1);

/** The label of an action code within one family, or undefined when the family does not declare it. */
function familyActionLabel(def: ResourceDef | undefined, action: string): Text | undefined {
  if (!def) return undefined;
  const declared = [...(def.workflow?.transitions ?? []), ...(def.actions ?? [])].find((one) => lowerFirst(one.verb) === action);
  if (declared) return declared.label;
  if (action.startsWith('set:')) {
    const field = def.fields[action.slice(4)];
    if (field) return { zh: `设置${field.label.zh}`, en: `Set ${field.label.en.toLowerCase()}` };
  }
  return undefined;
}

/** An action code as text: the family's own label first, then the engine's, then the code itself. */
export function operationActionText(family: unknown, action: unknown, locale: Locale): string {
  if (typeof action !== 'string' || action === '') return '';
  const label = familyActionLabel(typeof family === 'string' ? RESOURCES[family] : undefined, action) ?? CORE_ACTIONS[action];
  return label ? labelText(label, locale) : action;
}

/** Every action code a family may log, labelled: the options of the action filter. */
export function operationActionOptions(): EnumOption[] {
  const options = new Map<string, EnumOption>(Object.entries(CORE_ACTIONS).map(([value, label]) => [value, { value, ...label }]));
  for (const def of Object.values(RESOURCES)) {
    for (const one of [...(def.workflow?.transitions ?? []), ...(def.actions ?? [])]) {
      const value = lowerFirst(one.verb);
      if (!options.has(value)) options.set(value, { value, ...one.label });
    }
    for (const toggle of def.toggles ?? []) {
      const value = `set:${toggle.field}`;
      if (!options.has(value)) options.set(value, { value, ...familyActionLabel(def, value)! });
    }
  }
  return [...options.values()];
}
