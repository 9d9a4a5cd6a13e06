/**
 * The react-select control itself, in its own module so that it is loaded lazily (its own chunk)
 * by SearchableSelect. Styled with the design system's input look; Italian screen-reader text.
 */
import Select, { type AriaLiveMessages, type GroupBase } from 'react-select';
import type { SelectOption } from '../../../contract/envelope';
import { uiText } from '../ui-text';

export interface SelectControlProps {
  inputId: string;
  options: SelectOption[];
  value: SelectOption | null;
  onChange: (value: number | null) => void;
  onInputChange: (text: string) => void;
  inputValue: string;
  isLoading: boolean;
  isDisabled: boolean;
  invalid?: boolean;
  placeholder?: string;
  describedBy?: string;
  onBlur?: () => void;
  noOptionsText?: string;
  onMenuOpen?: () => void;
}

const ariaLiveMessages: AriaLiveMessages<SelectOption, false, GroupBase<SelectOption>> = {
  guidance: ({ context, isDisabled }) => {
    if (context === 'menu') return 'Usa Su e Giù per scegliere, Invio per selezionare, Esc per chiudere.';
    if (context === 'input') return isDisabled ? '' : 'Digita per cercare, premi Giù per aprire il menu.';
    return '';
  },
  onChange: ({ action, label }) => {
    if (action === 'clear') return 'Selezione cancellata.';
    if (action === 'select-option') return `Selezionato: ${label}.`;
    return '';
  },
  onFocus: ({ context, label, isSelected }) =>
    context === 'menu' ? `${label}${isSelected ? ', selezionato' : ''}.` : `${label}.`,
  onFilter: ({ inputValue, resultsMessage }) =>
    `${resultsMessage}${inputValue ? ` per "${inputValue}"` : ''}.`,
};

export default function SelectControl(props: SelectControlProps) {
  const { inputId, options, value, onChange, onInputChange, inputValue, isLoading, isDisabled, invalid } =
    props;
  return (
    <Select<SelectOption, false>
      inputId={inputId}
      options={options}
      value={value}
      onChange={(option) => onChange(option ? option.value : null)}
      inputValue={inputValue}
      onInputChange={(text, meta) => {
        if (meta.action === 'input-change') onInputChange(text);
        else if (meta.action === 'menu-close' || meta.action === 'set-value') onInputChange('');
      }}
      onBlur={props.onBlur}
      // The server searches; do not filter its answer a second time.
      filterOption={null}
      isLoading={isLoading}
      isDisabled={isDisabled}
      isClearable
      placeholder={props.placeholder ?? uiText.selectPlaceholder}
      noOptionsMessage={() => props.noOptionsText ?? uiText.selectNoOptions}
      onMenuOpen={props.onMenuOpen}
      loadingMessage={() => uiText.selectLoading}
      screenReaderStatus={({ count }) =>
        count === 1 ? '1 risultato disponibile' : `${count} risultati disponibili`
      }
      ariaLiveMessages={ariaLiveMessages}
      aria-invalid={invalid || undefined}
      aria-describedby={props.describedBy}
      menuPlacement="auto"
      unstyled
      // react-select hides a disabled input (visibility: hidden), which drops it from the
      // accessibility tree; keep it, so the label still names a (disabled) combobox.
      styles={{ input: (base) => ({ ...base, visibility: 'visible' }) }}
      classNames={{
        control: ({ isFocused, isDisabled: disabled }) =>
          [
            'min-h-[38px] rounded-lg border px-3 text-sm shadow-sm transition-colors',
            invalid
              ? 'border-red-500'
              : isFocused
                ? 'border-brand-blue'
                : 'border-slate-300 hover:border-slate-400',
            isFocused ? (invalid ? 'ring-2 ring-red-500/30' : 'ring-2 ring-brand-blue/30') : '',
            // One background class only: bg-white and bg-slate-100 together leave the winner to CSS order.
            disabled ? 'cursor-not-allowed bg-slate-100 text-slate-500' : 'bg-white',
          ].join(' '),
        valueContainer: () => 'gap-1 py-1.5',
        placeholder: () => 'text-slate-400',
        singleValue: () => 'text-slate-900',
        input: () => 'text-slate-900',
        indicatorsContainer: () => 'gap-1 text-slate-400',
        clearIndicator: () => 'cursor-pointer rounded p-1 hover:bg-slate-100 hover:text-slate-700',
        dropdownIndicator: () => 'p-1 hover:text-slate-700',
        indicatorSeparator: () => 'my-2 w-px bg-slate-200',
        loadingIndicator: () => 'p-1',
        menu: () => 'z-30 mt-1 overflow-hidden rounded-lg border border-slate-200 bg-white text-sm shadow-lg',
        menuList: () => 'max-h-64 py-1',
        option: ({ isFocused, isSelected }) =>
          [
            'cursor-pointer px-3 py-2',
            isSelected
              ? 'bg-brand-blue text-white'
              : isFocused
                ? 'bg-slate-100 text-slate-900'
                : 'text-slate-700',
          ].join(' '),
        noOptionsMessage: () => 'px-3 py-2 text-slate-500',
        loadingMessage: () => 'px-3 py-2 text-slate-500',
      }}
    />
  );
}
