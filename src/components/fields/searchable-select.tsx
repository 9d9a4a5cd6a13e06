import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { SelectOption } from '../../../contract/envelope';
import { useSelectOptions, type FilterValue } from '../../lib/entity-hooks';
import { uiText } from '../ui-text';

// react-select is heavy and only some screens need it: its own chunk, loaded on first use.
const SelectControl = lazy(() => import('./select-control'));

export const SEARCH_DEBOUNCE_MS = 250;
export const DEFAULT_SELECT_PAGE_SIZE = 20;

export interface SearchableSelectProps {
  /** id of the input, for the <label htmlFor>. */
  id: string;
  /** Entity whose `getAllForSelect` gives the options. */
  entity: string;
  pageSize?: number;
  value: number | null;
  onChange: (value: number | null) => void;
  /** Sent as `filters[key]`; e.g. { regionId: 3 } for provinces. */
  filters?: Record<string, FilterValue>;
  disabled?: boolean;
  invalid?: boolean;
  placeholder?: string;
  describedBy?: string;
  onBlur?: () => void;
  /** Text of an empty answer (e.g. 'Nessun utente trovato.'); default 'Nessun risultato'. */
  noOptionsText?: string;
  /**
   * Ask for the options only when the menu first opens (or a value is set), so a screen with
   * several pickers (the filter panel) makes no calls until one is used.
   */
  loadOnOpen?: boolean;
}

/** A searchable select over `GET api/{entity}/getAllForSelect` (server-side search, current value always included). */
export function SearchableSelect(props: SearchableSelectProps) {
  const { id, entity, value, disabled = false } = props;
  const [input, setInput] = useState('');
  const [term, setTerm] = useState('');
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setTerm(input), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [input]);

  const options = useSelectOptions(
    entity,
    {
      page: 1,
      pageSize: props.pageSize ?? DEFAULT_SELECT_PAGE_SIZE,
      searchTerm: term,
      selectedIds: value !== null ? [value] : [],
      filters: props.filters,
    },
    { enabled: (!disabled || value !== null) && (!props.loadOnOpen || opened || value !== null) },
  );
  const list = useMemo(() => options.data?.options ?? [], [options.data]);

  // Remember labels already seen, so the chosen value keeps its text while a search reloads.
  const labels = useRef(new Map<number, string>());
  for (const o of list) labels.current.set(o.value, o.label);
  const label = value === null ? undefined : labels.current.get(value);
  const selected: SelectOption | null = value === null || label === undefined ? null : { value, label };

  return (
    <Suspense
      fallback={
        <input
          id={id}
          className="input"
          disabled
          placeholder={uiText.loading}
          aria-describedby={props.describedBy}
        />
      }
    >
      <SelectControl
        inputId={id}
        options={list}
        value={selected}
        onChange={props.onChange}
        inputValue={input}
        onInputChange={setInput}
        isLoading={options.isFetching}
        isDisabled={disabled}
        invalid={props.invalid}
        placeholder={props.placeholder}
        describedBy={props.describedBy}
        onBlur={props.onBlur}
        noOptionsText={props.noOptionsText}
        onMenuOpen={() => setOpened(true)}
      />
    </Suspense>
  );
}
