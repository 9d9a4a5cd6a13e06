import { useId } from 'react';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import type { FieldDef, FormValues } from '../../lib/resource';
import { uiText } from '../ui-text';
import { SearchableSelect } from './searchable-select';

export interface FormFieldProps {
  field: FieldDef;
  form: UseFormReturn<FormValues>;
  /** All fields of the form: a select change clears the selects that depend on it. */
  fields: readonly FieldDef[];
  readOnly?: boolean;
  /** A line of help under the field (e.g. how an empty secret behaves). */
  hint?: string;
}

/** Clears (recursively) every select whose `dependsOn.field` is `key` (spec §4 'Address selects'). */
export function clearDependents(form: UseFormReturn<FormValues>, fields: readonly FieldDef[], key: string) {
  for (const f of fields) {
    if (f.kind === 'select' && f.dependsOn?.field === key) {
      form.setValue(f.key, null, { shouldDirty: true });
      clearDependents(form, fields, f.key);
    }
  }
}

function RequiredMark() {
  return (
    <span className="ml-0.5 text-red-600" aria-hidden="true" title={uiText.required}>
      *
    </span>
  );
}

/** One labelled input of a generic form, by kind: text, textarea, number, checkbox, searchable select. */
export function FormField({ field, form, fields, readOnly = false, hint }: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const error = form.formState.errors[field.key]?.message;
  const message = typeof error === 'string' ? error : undefined;
  const describedBy = [message ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  const parentKey = field.kind === 'select' ? field.dependsOn?.field : undefined;
  // The parent's value, when this select depends on another field (watched by name; '' when none).
  const parentValue = useWatch({ control: form.control, name: parentKey ?? '__none__' }) as unknown;

  if (field.kind === 'checkbox') {
    return (
      <div className="flex items-center gap-2 pt-1 sm:col-span-2">
        <input
          id={id}
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300 accent-brand-blue"
          disabled={readOnly}
          aria-describedby={describedBy}
          {...form.register(field.key)}
        />
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {field.label}
          {field.required && <RequiredMark />}
        </label>
        {message && (
          <p id={errorId} className="field-error">
            {message}
          </p>
        )}
      </div>
    );
  }

  const inputClass = `input ${message ? 'input-error' : ''}`;
  let control;
  switch (field.kind) {
    case 'textarea':
      control = (
        <textarea
          id={id}
          rows={field.rows ?? 4}
          className={inputClass}
          placeholder={field.placeholder}
          readOnly={readOnly}
          aria-invalid={message ? true : undefined}
          aria-describedby={describedBy}
          {...form.register(field.key)}
        />
      );
      break;
    case 'number':
      control = (
        <input
          id={id}
          type="number"
          inputMode="decimal"
          step={field.step ?? 'any'}
          min={field.min}
          max={field.max}
          className={inputClass}
          readOnly={readOnly}
          aria-invalid={message ? true : undefined}
          aria-describedby={describedBy}
          {...form.register(field.key, {
            setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v)),
          })}
        />
      );
      break;
    case 'choice':
      control = (
        <select
          id={id}
          className={inputClass}
          disabled={readOnly}
          aria-invalid={message ? true : undefined}
          aria-describedby={describedBy}
          {...form.register(field.key, {
            setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v)),
          })}
        >
          <option value="">{field.placeholder ?? uiText.selectPlaceholder}</option>
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'select': {
      const parentEmpty =
        parentKey !== undefined && (parentValue === null || parentValue === undefined || parentValue === '');
      control = (
        <Controller
          control={form.control}
          name={field.key}
          render={({ field: f }) => (
            <SearchableSelect
              id={id}
              entity={field.source.entity}
              pageSize={field.source.pageSize}
              value={typeof f.value === 'number' ? f.value : null}
              onChange={(v) => {
                f.onChange(v);
                clearDependents(form, fields, field.key);
              }}
              onBlur={f.onBlur}
              filters={
                field.dependsOn && !parentEmpty
                  ? { [field.dependsOn.filterKey]: parentValue as number }
                  : undefined
              }
              disabled={readOnly || parentEmpty}
              invalid={Boolean(message)}
              placeholder={field.placeholder}
              describedBy={describedBy}
            />
          )}
        />
      );
      break;
    }
    default:
      control = (
        <input
          id={id}
          type={field.inputType ?? 'text'}
          autoComplete={field.writeOnly ? 'new-password' : undefined}
          className={inputClass}
          placeholder={field.placeholder}
          readOnly={readOnly}
          aria-invalid={message ? true : undefined}
          aria-describedby={describedBy}
          {...form.register(
            field.key,
            field.validate ? { validate: (v: unknown) => field.validate?.(String(v ?? '')) ?? true } : {},
          )}
        />
      );
  }

  return (
    <div>
      <label htmlFor={id} className="label">
        {field.label}
        {field.required && <RequiredMark />}
      </label>
      {control}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {message && (
        <p id={errorId} className="field-error">
          {message}
        </p>
      )}
    </div>
  );
}
