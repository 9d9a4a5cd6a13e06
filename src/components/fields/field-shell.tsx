import { useId, type ReactNode } from 'react';
import { uiText } from '../ui-text';

/*
 * The label / error / hint wiring every form of the SPA shares. Kept free of heavy imports
 * (react-select, sweetalert2, recharts): the sign-in page uses it on first load.
 */

/** Props that tie a control to its label and messages. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/** Ids of a field and the props its control needs; the error and hint ids are referenced only while shown. */
export function useFieldControl(error?: string | null, hint?: string) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  const control: FieldControlProps = { id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy };
  return { errorId, hintId, control };
}

/** The `input` class, red while the field is in error; `extra` adds the caller's own classes. */
export function inputClass(error?: string | null, extra?: string): string {
  return ['input', extra, error ? 'input-error' : ''].filter(Boolean).join(' ');
}

export function RequiredMark() {
  return (
    <span className="ml-0.5 text-red-600" aria-hidden="true" title={uiText.required}>
      *
    </span>
  );
}

export function FieldError({
  id,
  message,
  className,
}: {
  id: string;
  message?: string | null;
  className?: string;
}) {
  if (!message) return null;
  return (
    <p id={id} className={className ? `field-error ${className}` : 'field-error'}>
      {message}
    </p>
  );
}

export interface FieldShellProps {
  label: ReactNode;
  required?: boolean;
  error?: string | null;
  /** A line of help under the control. */
  hint?: string;
  /** Shown on the label's line, at its end (e.g. a "forgotten password" link). */
  labelAside?: ReactNode;
  /** Renders the control with the given props spread on it. */
  children: (control: FieldControlProps) => ReactNode;
  /** The form's key of the field (`data-field`), for a form that focuses a field by name. */
  name?: string;
}

/** A stacked field: label, control, hint, inline error, with id and aria wiring. */
export function FieldShell({ label, required, error, hint, labelAside, children, name }: FieldShellProps) {
  const { errorId, hintId, control } = useFieldControl(error, hint);
  const labelElement = (
    <label htmlFor={control.id} className="label">
      {label}
      {required && <RequiredMark />}
    </label>
  );
  return (
    <div data-field={name}>
      {labelAside ? (
        <div className="flex items-baseline justify-between">
          {labelElement}
          {labelAside}
        </div>
      ) : (
        labelElement
      )}
      {children(control)}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
