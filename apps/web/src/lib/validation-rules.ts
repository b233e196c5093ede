import { MOBILE_PHONE_PATTERN, SERVICE_LINE_PATTERN } from '@campus/contract';
import type { FormRule } from 'antd';
import type { Translate } from './i18n';

/** ≥ 8 characters with at least one letter and one digit. */
export const PASSWORD_STRENGTH = /^(?=.*[A-Za-z])(?=.*\d).{8,}$/;
export const SMS_CODE = /^\d{6}$/;

/** antd rules with localised messages; the same limits as the contract's zod schemas. */
export function formRules(t: Translate) {
  return {
    required: (field: string): FormRule => ({ required: true, whitespace: true, message: t('common.required', { field }) }),
    phone: { pattern: MOBILE_PHONE_PATTERN, message: t('validate.phone') } satisfies FormRule,
    /** A number people call: mobile, landline or 400/800 (the contract's serviceLine). */
    serviceLine: { pattern: SERVICE_LINE_PATTERN, message: t('validate.serviceLine') } satisfies FormRule,
    smsCode: { pattern: SMS_CODE, message: t('validate.smsCode') } satisfies FormRule,
    strongPassword: { pattern: PASSWORD_STRENGTH, message: t('validate.passwordStrength') } satisfies FormRule,
    email: { type: 'email', message: t('validate.email') } satisfies FormRule,
    /** The confirmation must equal the field `otherField`. */
    sameAs: (otherField: string): FormRule => ({ getFieldValue }) => ({
      validator: (_rule, value) =>
        !value || value === getFieldValue(otherField) ? Promise.resolve() : Promise.reject(new Error(t('validate.passwordMismatch'))),
    }),
    /** The new password must differ from `otherField` (changing to the same password changes nothing). */
    differentFrom: (otherField: string): FormRule => ({ getFieldValue }) => ({
      validator: (_rule, value) =>
        !value || value !== getFieldValue(otherField) ? Promise.resolve() : Promise.reject(new Error(t('validate.samePassword'))),
    }),
  };
}
