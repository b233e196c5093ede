import { useCallback, useRef, useState } from 'react';
import { fieldErrorsByPath } from '../../lib/form-errors';

/** Checks one value; answers the message to show, or null when it passes. */
export type FieldCheck = (value: string) => string | null;

export interface PlainForm<Name extends string> {
  values: Record<Name, string>;
  errors: Partial<Record<Name, string[]>>;
  /** Sets a value and checks it again, as antd's Form does on every change. */
  change: (name: Name, value: string) => void;
  /** Sets values without checking them (clearing a spent image code). */
  set: (values: Partial<Record<Name, string>>) => void;
  /** Checks every field; answers the values when all pass, else shows the messages and answers null. */
  validate: () => Record<Name, string> | null;
  /** Shows the server's field errors of a failed call on the fields it names; answers whether there were any. */
  showServerErrors: (error: unknown) => boolean;
}

/**
 * The few form behaviours /login needs from antd's Form, without its bytes: values, a check per field run
 * on change and on submit, and the server's field errors (HTTP 400) shown under their fields.
 */
export function usePlainForm<Name extends string>(initial: Record<Name, string>, checks: Record<Name, FieldCheck>): PlainForm<Name> {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Name, string[]>>>({});
  // The checks carry translated messages: the latest ones apply after a language switch.
  const checksRef = useRef(checks);
  checksRef.current = checks;
  const valuesRef = useRef(values);
  valuesRef.current = values;

  const change = useCallback((name: Name, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    const message = checksRef.current[name](value);
    setErrors((current) => ({ ...current, [name]: message ? [message] : undefined }));
  }, []);

  const set = useCallback((next: Partial<Record<Name, string>>) => setValues((current) => ({ ...current, ...next })), []);

  const validate = useCallback((): Record<Name, string> | null => {
    const current = valuesRef.current;
    const found: Partial<Record<Name, string[]>> = {};
    let passed = true;
    for (const name of Object.keys(checksRef.current) as Name[]) {
      const message = checksRef.current[name](current[name]);
      if (message) {
        found[name] = [message];
        passed = false;
      }
    }
    setErrors(found);
    return passed ? current : null;
  }, []);

  const showServerErrors = useCallback((error: unknown): boolean => {
    const byPath = fieldErrorsByPath(error);
    if (!byPath) return false;
    const names = Object.keys(checksRef.current);
    setErrors((current) => {
      const next = { ...current };
      for (const [path, messages] of byPath) if (names.includes(path)) next[path as Name] = messages;
      return next;
    });
    return true;
  }, []);

  return { values, errors, change, set, validate, showServerErrors };
}

/** antd's `required` with `whitespace`: blank or spaces only is missing. */
export function requiredCheck(message: string): FieldCheck {
  return (value) => (value.trim() === '' ? message : null);
}
