import type { InputHTMLAttributes, Ref } from 'react';
import { inputClass } from './field-shell';

export interface EuroInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'inputMode' | 'className'
> {
  ref?: Ref<HTMLInputElement>;
  /** The field's error: the input turns red. */
  error?: string | null;
  /** Classes added to the input's own (alignment, padding). */
  extraClassName?: string;
  /** Draws '€' inside the input, at its end (the label does not say it). */
  suffix?: boolean;
}

/**
 * The one euro amount input of the SPA: text typed the Italian way ('49,50'; a dot works too),
 * a decimal keyboard on phones, tabular digits, a '0,00' placeholder where the caller passes one. Parsing stays with the
 * caller's schema (contract/schemas: euros with at most two decimals). Spread a FieldShell's
 * control props (id, aria) and either `value`/`onChange` or react-hook-form's `register(...)`.
 */
export function EuroInput({ error, extraClassName, suffix, ...props }: EuroInputProps) {
  const input = (
    <input
      autoComplete="off"
      {...props}
      type="text"
      inputMode="decimal"
      className={inputClass(
        error,
        ['tabular-nums', extraClassName, suffix ? 'pr-8' : ''].filter(Boolean).join(' '),
      )}
    />
  );
  if (!suffix) return input;
  return (
    <div className="relative">
      {input}
      <span
        aria-hidden="true"
        className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-slate-500"
      >
        €
      </span>
    </div>
  );
}
