/**
 * The shape of an entity declaration (`src/entities/<name>/<name>.resource.ts`). The generic list
 * and form pages and the React Query hooks read only this, so a new CRUD entity is one new file
 * plus two one-line screens. A screen that does not fit is a custom page beside it, not a new flag.
 */
import type { ZodType } from 'zod';
import { isResourceName, type ResourceName } from '../../contract/access';
import { messages } from '../../contract/messages';
import type { ChoiceOption, ColumnDef, FilterDef, SelectSource } from '../../contract/lists/list-spec';

/**
 * A list's columns and filters are the entity's list spec (contract/lists/<entity>.ts), which the
 * server reads too (its sort keys, filters and export); a resource takes them as they are.
 */
export type {
  ColumnDef,
  ColumnType,
  ChoiceOption,
  FilterDef,
  SelectSource,
} from '../../contract/lists/list-spec';
export { sortKeyOf } from '../../contract/lists/list-spec';

/** Right for money and percentages (tabular figures), else as declared. */
export function alignOf(column: ColumnDef): 'left' | 'right' {
  return column.align ?? (column.type === 'currency' || column.type === 'percent' ? 'right' : 'left');
}

/**
 * A select whose options depend on another field's value (spec §4 'Address selects'): the options
 * are filtered by `filters[filterKey] = <value of field>`, the select is disabled while that field
 * is empty, and it is cleared whenever that field changes.
 */
export interface DependsOn {
  field: string;
  filterKey: string;
}

interface FieldBase {
  /** Property of the form object (and of the request body). */
  key: string;
  /** Visible label, Italian. */
  label: string;
  /**
   * Shows the required marker; the server still decides (generic forms validate server-side).
   * 'create': required on a new item only (e.g. a secret that an edit may leave as stored).
   */
  required?: boolean | 'create';
  /** Shown in create mode only: read-only (disabled) when editing. */
  createOnly?: boolean;
  /** Where the loaded row holds the value, as a dotted path (`billingAddress.street`); default `key`. */
  from?: string;
  /**
   * Where the request body takes the value, as a dotted path of one level (`pensionFund.type`);
   * default `key`. Fields sharing an object are sent as that object, or as null when all are empty.
   */
  to?: string;
  /** Value of the field in a new form; default '' (text), null (number, select, choice), false (checkbox). */
  defaultValue?: unknown;
  /**
   * A secret: the form never shows the stored value (it starts empty, with a hint when editing)
   * and an empty box is left out of the body, so the server keeps what it has.
   */
  writeOnly?: boolean;
  /** Tab of a form split in tabs: FormPage draws one tab per group, in order of first appearance. */
  group?: string;
}

export type FieldDef =
  | (FieldBase & {
      kind: 'text';
      inputType?: 'text' | 'email' | 'tel' | 'url' | 'password' | 'date';
      placeholder?: string;
      /** Runs on blur; a returned string is shown under the field (spec §5 'Generic text field'). */
      validate?: (value: string) => string | undefined;
    })
  | (FieldBase & { kind: 'textarea'; rows?: number; placeholder?: string })
  /**
   * A decimal typed the Italian way ('49,50'; a dot is accepted too), shown with the places its
   * step asks for. `suffix` is drawn inside the box ('€', '%').
   */
  | (FieldBase & { kind: 'number'; step?: number; min?: number; max?: number; suffix?: string })
  | (FieldBase & { kind: 'checkbox' })
  | (FieldBase & { kind: 'select'; source: SelectSource; dependsOn?: DependsOn; placeholder?: string })
  | (FieldBase & { kind: 'choice'; options: readonly ChoiceOption[]; placeholder?: string });

/** Values of a generic form: text as string, numbers and select ids as number | null, checkboxes as boolean. */
export type FormValues = Record<string, unknown>;

/** One of a resource's screens in the route table: its label (sidebar entry, breadcrumb) and whether the sidebar lists it. */
export interface RouteDecl {
  label: string;
  sidebar?: boolean;
}

/**
 * A resource's routes (spec §2 'Route table'), from which the route table is generated:
 * `/{name}` (list), `/{name}/new` (create, when declared) and `/{name}/:id` (edit). `access` says
 * who opens them: 'guarded' asks `can(name, 'list')` (the roles of the contract's access table),
 * 'open' lets any signed-in person in (the spec's 'no limit'; the server's scope decides the rows).
 */
export interface ResourceRoutes {
  access: 'guarded' | 'open';
  list: RouteDecl;
  create?: RouteDecl;
  edit: RouteDecl;
}

export interface ResourceDef<T extends { id: number } = { id: number }> {
  /** Endpoint name and route segment: `api/{name}/getAll`, `/{name}/:id`. */
  name: string;
  /**
   * The key of the contract's access table that decides who sees 'Crea', 'Modifica' and 'Elimina'
   * (`can`); default `name`. A name the table does not know allows nothing.
   */
  access?: ResourceName;
  /** The routes the app's registry (src/app/registry.ts) generates for this resource. */
  routes?: ResourceRoutes;
  /** Display name in titles: 'Lista di {label}', 'Crea Nuovo {label}', 'Modifica {label}'. */
  label: string;
  /**
   * Titles that replace the generic ones built from `label` (e.g. 'Lista Tenants', 'Dettaglio
   * Tenant', or an Italian feminine 'Crea Nuova …'). `createButton` defaults to the generic
   * 'Crea Nuovo {label}'.
   */
  titles?: { list?: string; create?: string; edit?: string; createButton?: string };
  /** Where 'Crea Nuovo …' leads when creating is a custom screen (the user wizard); default `/{name}/new`. */
  createPath?: string;
  /** The list spec's columns (contract/lists). */
  columns: readonly ColumnDef[];
  /** The list spec's screen filters (contract/lists). */
  filters?: readonly FilterDef[];
  /** Show the free-text search box (`searchTerm`). Default true. */
  searchable?: boolean;
  fields: FieldDef[];
  /**
   * Client-side validation, run on the body the server will get (numbers parsed, `id` added when
   * editing, so create-only rules such as a required secret apply to new items only). Absent for
   * the generic forms (spec §5: the server validates).
   */
  schema?: ZodType;
  /**
   * Where a successful create leads: 'list' (default, back to the list the person came from) or
   * 'edit' (stay on the new item, e.g. a plan whose features can only be added once it exists).
   */
  afterCreate?: 'list' | 'edit';
  /**
   * Other entities whose rows a write of this one changes on the server, refreshed after it (a
   * customer's or the seller's billing data saved: their waiting invoices are issued).
   */
  refreshes?: readonly string[];
  /** Messages that replace the generic ones (e.g. the user screens, spec §8). */
  messages?: {
    created?: string;
    updated?: string;
    /** When set, a failed delete is toasted with it; otherwise it is only logged (spec §8). */
    deleteFailed?: (error: string) => string;
    /**
     * The toast of a failed save, from the server's `errors` (or its message); default the generic
     * 'Errore durante il salvataggio…'. The plan form shows `errors[0]` (spec §8).
     */
    saveFailed?: (serverErrors: readonly string[]) => string;
  };
  /** Optional typing aid only; the generic pages treat rows as records. */
  readonly __row?: T;
}

export const listTitle = (r: Pick<ResourceDef, 'label' | 'titles'>) =>
  r.titles?.list ?? messages.common.listTitle(r.label);
export const createTitle = (r: Pick<ResourceDef, 'label' | 'titles'>) =>
  r.titles?.create ?? messages.common.createNew(r.label);
export const editTitle = (r: Pick<ResourceDef, 'label' | 'titles'>) =>
  r.titles?.edit ?? messages.common.edit(r.label);
export const createButtonLabel = (r: Pick<ResourceDef, 'label' | 'titles'>) =>
  r.titles?.createButton ?? messages.common.createNew(r.label);

/** The access table's key of a resource: `access`, else its name when the table knows it. */
export function accessOf(r: Pick<ResourceDef, 'name' | 'access'>): ResourceName | null {
  return r.access ?? (isResourceName(r.name) ? r.name : null);
}

/** Declares a resource with its row type, keeping literal checks on the object. */
export function defineResource<T extends { id: number }>(def: ResourceDef<T>): ResourceDef<T> {
  return def;
}

/** What a route's screen receives: its own label, for screens that have no title of their own. */
export interface ScreenProps {
  routeLabel: string;
}
