import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import type { FocusEvent } from 'react';
import { parseDecimal } from '../../lib/formatters';
import type { FieldDef, FormValues } from '../../lib/resource';
import { numberText } from '../../lib/use-form-controller';
import { uiText } from '../ui-text';
import { EuroInput } from './euro-input';
import { FieldError, FieldShell, inputClass, RequiredMark, useFieldControl } from './field-shell';
import type { FieldControlProps } from './field-shell';
import { SearchableSelect } from './searchable-select';

export interface FormFieldProps {
  field: FieldDef;
  form: UseFormReturn<FormValues>;
  /** All fields of the form: a select change clears the selects that depend on it. */
  fields: readonly FieldDef[];
  readOnly?: boolean;
  /** A line of help under the field (e.g. how an empty secret behaves). */
  hint?: string;
  /** Edit mode: a field required on create only shows no required mark. */
  isEdit?: boolean;
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

/** Whether the field shows the required mark in this mode ('create': on new items only). */
export function isRequired(field: FieldDef, isEdit: boolean): boolean {
  return field.required === true || (field.required === 'create' && !isEdit);
}

/** One labelled input of a generic form, by kind: text, textarea, number, checkbox, searchable select. */
export function FormField({ field, form, fields, readOnly = false, hint, isEdit = false }: FormFieldProps) {
  const error = form.formState.errors[field.key]?.message;
  const message = typeof error === 'string' ? error : undefined;
  const parentKey = field.kind === 'select' ? field.dependsOn?.field : undefined;
  // The parent's value, when this select depends on another field (watched by name; '' when none).
  const parentValue = useWatch({ control: form.control, name: parentKey ?? '__none__' }) as unknown;

  if (field.kind === 'checkbox') {
    return <CheckboxField field={field} form={form} readOnly={readOnly} message={message} />;
  }

  const renderControl = (control: FieldControlProps) => {
    const className = inputClass(message);
    switch (field.kind) {
      case 'textarea':
        return (
          <textarea
            {...control}
            rows={field.rows ?? 4}
            className={className}
            placeholder={field.placeholder}
            readOnly={readOnly}
            {...form.register(field.key)}
          />
        );
      case 'number': {
        // Typed the Italian way ('49,50'; a dot works too), tidied to the step's places on blur.
        const registered = form.register(field.key);
        const tidy = (e: FocusEvent<HTMLInputElement>) => {
          const n = parseDecimal(e.target.value);
          if (n !== null) form.setValue(field.key, numberText(field, n), { shouldDirty: true });
          void registered.onBlur(e);
        };
        // Euros: the one euro input of the SPA (components/fields/euro-input.tsx).
        if (field.suffix === '€') {
          return (
            <EuroInput
              {...control}
              error={message}
              extraClassName="text-right"
              suffix
              readOnly={readOnly}
              {...registered}
              onBlur={tidy}
            />
          );
        }
        const input = (
          <input
            {...control}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className={`${className} text-right tabular-nums ${field.suffix ? 'pr-8' : ''}`}
            readOnly={readOnly}
            {...registered}
            onBlur={tidy}
          />
        );
        if (!field.suffix) return input;
        return (
          <div className="relative">
            {input}
            <span
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-slate-500"
            >
              {field.suffix}
            </span>
          </div>
        );
      }
      case 'choice':
        return (
          <select
            {...control}
            className={className}
            disabled={readOnly}
            {...form.register(field.key, {
              // The option's own value back (a number for ids, a string for codes such as RF01).
              setValueAs: (v: unknown) => {
                if (v === '' || v === null || v === undefined) return null;
                const option = field.options.find((o) => String(o.value) === String(v));
                return option ? option.value : Number(v);
              },
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
      case 'select': {
        const parentEmpty =
          parentKey !== undefined &&
          (parentValue === null || parentValue === undefined || parentValue === '');
        return (
          <Controller
            control={form.control}
            name={field.key}
            render={({ field: f }) => (
              <SearchableSelect
                id={control.id}
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
                describedBy={control['aria-describedby']}
              />
            )}
          />
        );
      }
      default:
        return (
          <input
            {...control}
            type={field.inputType ?? 'text'}
            autoComplete={field.writeOnly ? 'new-password' : undefined}
            className={className}
            placeholder={field.placeholder}
            readOnly={readOnly}
            {...form.register(
              field.key,
              field.validate ? { validate: (v: unknown) => field.validate?.(String(v ?? '')) ?? true } : {},
            )}
          />
        );
    }
  };

  return (
    <FieldShell
      label={field.label}
      required={isRequired(field, isEdit)}
      error={message}
      hint={hint}
      name={field.key}
    >
      {renderControl}
    </FieldShell>
  );
}

function CheckboxField({
  field,
  form,
  readOnly,
  message,
}: {
  field: FieldDef;
  form: UseFormReturn<FormValues>;
  readOnly: boolean;
  message: string | undefined;
}) {
  const { errorId, control } = useFieldControl(message);
  return (
    <div className="flex items-center gap-2 pt-1 sm:col-span-2" data-field={field.key}>
      <input
        {...control}
        type="checkbox"
        className="h-4 w-4 rounded border-slate-300 accent-brand-blue"
        disabled={readOnly}
        {...form.register(field.key)}
      />
      <label htmlFor={control.id} className="text-sm font-medium text-slate-700">
        {field.label}
        {field.required === true && <RequiredMark />}
      </label>
      <FieldError id={errorId} message={message} />
    </div>
  );
}
