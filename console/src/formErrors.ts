import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import bounds from './fieldBounds.json';

/**
 * The numeric bounds the admin API enforces, with the validation code it answers when one is broken:
 * one table (fieldBounds.json) that state-service's FieldBoundsTests compares with the service's own
 * constants, so the form refuses exactly what the API would, with the same code, before sending.
 */
export type BoundedField = keyof typeof bounds;

export function boundsOf(field: BoundedField) {
  return bounds[field];
}

/** Why a value breaks the API's bound (the API's code and its range), or null when it is accepted. */
export function boundsError(field: BoundedField, value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const { min, max, code } = bounds[field];
  const name = field.split('.').pop();
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    return `${code}: ${name} must be ${min}..${max}`;
  }
  return null;
}

/** An antd rule for a bounded field (no clamping: 0 stays 0 and is refused with the API's code). */
export function boundsRule(field: BoundedField): Rule {
  return {
    validator: (_rule, value) => {
      const error = boundsError(field, value);
      return error ? Promise.reject(new Error(error)) : Promise.resolve();
    },
  };
}

type NamePath = (string | number)[];

/** The field paths a change touched (antd's onValuesChange gives the changed part as a nested object). */
export function changedPaths(changed: unknown, prefix: NamePath = []): NamePath[] {
  if (changed === null || typeof changed !== 'object' || Array.isArray(changed)) return [prefix];
  const paths: NamePath[] = prefix.length > 0 ? [prefix] : [];
  for (const [key, value] of Object.entries(changed as Record<string, unknown>)) {
    paths.push(...changedPaths(value, [...prefix, key]));
  }
  return paths;
}

/**
 * Clears the errors of every field the operator just changed (an error from the last refused save
 * must not stay on a value that is no longer the one refused); the field's own rules run again on
 * the new value.
 */
export function clearChangedErrors(form: FormInstance, changed: unknown) {
  const paths = changedPaths(changed).filter((path) => path.length > 0);
  const withErrors = paths.filter((path) => form.getFieldError(path).length > 0);
  if (withErrors.length > 0) form.setFields(withErrors.map((name) => ({ name, errors: [] })));
}

/** The drawer tab a form field lives on. */
export function tabOfField(name: NamePath): 'basic' | 'failure' {
  return name[0] === 'failure_policy' || name[0] === 'recovery' ? 'failure' : 'basic';
}

/** The tabs holding at least one field with an error, in the form's order. */
export function tabsWithErrors(fields: { name: NamePath; errors: string[] }[]): ('basic' | 'failure')[] {
  const tabs: ('basic' | 'failure')[] = [];
  for (const field of fields) {
    if (field.errors.length === 0) continue;
    const tab = tabOfField(field.name);
    if (!tabs.includes(tab)) tabs.push(tab);
  }
  return tabs;
}
