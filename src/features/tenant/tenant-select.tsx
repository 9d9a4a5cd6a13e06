import Select, { type AriaLiveMessages, type GroupBase, type StylesConfig } from 'react-select';
import { customerAreaMessages, messages } from '../../../contract/messages';
import type { TenantOption } from './use-tenant-list';

/** What the select is of: the staff's tenant, or a customer's seller (issue 28). */
interface Noun {
  /** 'Tenant', 'Fornitore': said by the screen reader. */
  name: string;
  placeholder: string;
  loading: string;
  noOptions: string;
}
const tenantNoun: Noun = {
  name: 'Tenant',
  placeholder: messages.tenant.placeholder,
  loading: messages.tenant.loading,
  noOptions: 'Nessun tenant trovato.',
};
export const supplierNoun: Noun = {
  name: customerAreaMessages.supplier,
  placeholder: customerAreaMessages.supplierPlaceholder,
  loading: 'Caricamento fornitori...',
  noOptions: 'Nessun fornitore trovato.',
};

/** Italian screen-reader announcements (react-select speaks English by default). */
function ariaLiveMessagesOf(noun: string): AriaLiveMessages<TenantOption, false, GroupBase<TenantOption>> {
  return {
    guidance: ({ context, isSearchable }) =>
      context === 'menu'
        ? 'Usa le frecce su e giù per scegliere, Invio per selezionare, Esc per chiudere.'
        : `${noun}${isSearchable ? ': digita per cercare' : ''}, freccia giù per aprire l’elenco.`,
    onChange: ({ label }) => `${noun} ${label} selezionato.`,
    onFocus: ({ label, options, focused }) =>
      `${label}, ${options.indexOf(focused) + 1} di ${options.length}.`,
    onFilter: ({ inputValue, resultsMessage }) =>
      `${resultsMessage}${inputValue ? ` per “${inputValue}”` : ''}.`,
  };
}

function stylesFor(compact: boolean): StylesConfig<TenantOption, false> {
  return {
    control: (base, state) => ({
      ...base,
      minHeight: compact ? 36 : 44,
      borderRadius: 8,
      borderColor: state.isFocused ? '#3b82f6' : '#cbd5e1',
      boxShadow: state.isFocused ? '0 0 0 3px rgb(59 130 246 / 0.25)' : '0 1px 2px rgb(15 23 42 / 0.05)',
      fontSize: 14,
      '&:hover': { borderColor: state.isFocused ? '#3b82f6' : '#94a3b8' },
    }),
    placeholder: (base) => ({ ...base, color: '#94a3b8' }),
    menu: (base) => ({
      ...base,
      zIndex: 50,
      borderRadius: 10,
      overflow: 'hidden',
      boxShadow: '0 10px 30px -10px rgb(15 23 42 / 0.25)',
      border: '1px solid #e2e8f0',
    }),
    option: (base, state) => ({
      ...base,
      fontSize: 14,
      backgroundColor: state.isSelected ? '#3b82f6' : state.isFocused ? '#eff6ff' : 'white',
      color: state.isSelected ? 'white' : '#0f172a',
      cursor: 'pointer',
    }),
    indicatorSeparator: () => ({ display: 'none' }),
  };
}

export interface TenantSelectProps {
  inputId: string;
  tenants: TenantOption[];
  isLoading: boolean;
  value: number | null;
  onSelect: (tenant: TenantOption) => void;
  compact?: boolean;
  autoFocus?: boolean;
  /** What it selects: a tenant (default), or a customer's seller. */
  noun?: Noun;
}

/** Searchable tenant dropdown (spec §2, 'Tenant selector'). Pair it with a <label htmlFor={inputId}>. */
export default function TenantSelect({
  inputId,
  tenants,
  isLoading,
  value,
  onSelect,
  compact = false,
  autoFocus = false,
  noun = tenantNoun,
}: TenantSelectProps) {
  const selected = tenants.find((t) => t.id === value) ?? null;
  return (
    <Select<TenantOption, false>
      inputId={inputId}
      instanceId={inputId}
      options={tenants}
      value={selected}
      isLoading={isLoading}
      isSearchable
      autoFocus={autoFocus}
      placeholder={isLoading ? noun.loading : noun.placeholder}
      loadingMessage={() => noun.loading}
      noOptionsMessage={() => noun.noOptions}
      screenReaderStatus={({ count }) =>
        `${count} ${count === 1 ? 'risultato disponibile' : 'risultati disponibili'}`
      }
      ariaLiveMessages={ariaLiveMessagesOf(noun.name)}
      getOptionLabel={(t) => t.name}
      getOptionValue={(t) => String(t.id)}
      onChange={(t) => {
        if (t && t.id !== value) onSelect(t);
      }}
      styles={stylesFor(compact)}
      classNamePrefix="tenant-select"
    />
  );
}
