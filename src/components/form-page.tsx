import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useWatch } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { messages } from '../../contract/messages';
import { listTitle, type FieldDef, type FormValues, type ResourceDef } from '../lib/resource';
import { toBody, useFormController, type FormController } from '../lib/use-form-controller';
import { FormField } from './fields/form-field';
import { ArrowLeftIcon } from './icons';
import { Skeleton } from './skeleton';
import { Tabs } from './tabs';
import { uiText } from './ui-text';

export interface FormPageProps<T extends { id: number }> {
  resource: ResourceDef<T>;
  /** Extra content under the fields, inside the form (e.g. a note). */
  children?: ReactNode;
  /** Sections below the form card, outside the form (their own inputs and buttons, e.g. plan features). */
  after?: ReactNode;
  /**
   * Content that follows what is being typed, under the fields: called with the body the form
   * would send now (e.g. the plan's 'Anteprima fattura').
   */
  live?: (body: FormValues) => ReactNode;
}

/** Renders `render` with the form's current body, again on every change. */
function LiveBody({
  c,
  fields,
  render,
}: {
  c: FormController;
  fields: readonly FieldDef[];
  render: (body: FormValues) => ReactNode;
}) {
  const values = useWatch({ control: c.form.control });
  return <>{render(toBody(fields, values))}</>;
}

/** Fields in tabs by `group`, in order of first appearance; one unnamed group when none has a group. */
function groupFields(fields: readonly FieldDef[]): { name: string; fields: FieldDef[] }[] {
  const groups: { name: string; fields: FieldDef[] }[] = [];
  for (const f of fields) {
    const name = f.group ?? '';
    let g = groups.find((x) => x.name === name);
    if (!g) {
      g = { name, fields: [] };
      groups.push(g);
    }
    g.fields.push(f);
  }
  return groups;
}

function FieldGrid({
  fields,
  all,
  c,
  readOnly,
}: {
  fields: readonly FieldDef[];
  all: readonly FieldDef[];
  c: FormController;
  readOnly: boolean;
}) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      {fields.map((f) => (
        <FormField
          key={f.key}
          field={f}
          form={c.form}
          fields={all}
          readOnly={readOnly || (c.isEdit && f.createOnly === true)}
          isEdit={c.isEdit}
          hint={c.isEdit && f.writeOnly ? uiText.writeOnlyHint : undefined}
        />
      ))}
    </div>
  );
}

/**
 * The field `?focus={key}` names (e.g. the invoices' 'Completa i dati'), or, while a select it
 * depends on is empty (a comune without its provincia), the first empty one it depends on.
 */
export function focusTarget(
  fields: readonly FieldDef[],
  key: string,
  valueOf: (key: string) => unknown,
): FieldDef | undefined {
  let field = fields.find((f) => f.key === key);
  for (let guard = 0; field && guard < fields.length; guard++) {
    const parentKey = field.kind === 'select' ? field.dependsOn?.field : undefined;
    const parent = parentKey ? fields.find((f) => f.key === parentKey) : undefined;
    const empty = (v: unknown) => v === null || v === undefined || v === '';
    if (!parent || !empty(valueOf(parent.key))) break;
    field = parent;
  }
  return field;
}

/**
 * Once the form shows its values, focuses the field the URL names (`?focus=key`): its tab first,
 * then its control, as soon as that is on screen and enabled (a lazy select may take a moment).
 */
function useFocusFromUrl(
  c: FormController,
  fields: readonly FieldDef[],
  formRef: RefObject<HTMLFormElement | null>,
  showTab: (group: string) => void,
) {
  const [params] = useSearchParams();
  const key = params.get('focus');
  const done = useRef<string | null>(null);
  const ready = !c.isLoading && !c.loadFailed;
  useEffect(() => {
    if (!key || !ready || done.current === key) return;
    const field = focusTarget(fields, key, (k) => c.form.getValues(k));
    if (!field) return;
    done.current = key;
    showTab(field.group ?? '');
    let timer: number | undefined;
    let tries = 0;
    const attempt = () => {
      const scope = `[data-field="${field.key}"]`;
      const control = formRef.current?.querySelector<HTMLInputElement>(
        `${scope} input:not([type="hidden"]), ${scope} select, ${scope} textarea`,
      );
      if (control && !control.disabled && !control.closest('[hidden]')) {
        control.focus();
        return;
      }
      if (++tries < 30) timer = window.setTimeout(attempt, 100);
    };
    timer = window.setTimeout(attempt, 0);
    return () => window.clearTimeout(timer);
  }, [key, ready, fields, c.form, formRef, showTab]);
}

/**
 * The shared form screen (spec §2): 'Crea Nuovo …' / 'Modifica …', 'Crea' / 'Salva' and
 * 'Indietro'; fades in after 100 ms and out (300 ms) after a save, then goes back. `?focus={key}`
 * opens it on that field.
 */
export function FormPage<T extends { id: number }>({ resource, children, after, live }: FormPageProps<T>) {
  const c = useFormController(resource);
  const readOnly = !c.canSave;
  const groups = groupFields(resource.fields);
  const [tab, setTab] = useState(groups[0]?.name ?? '');
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFromUrl(c, resource.fields, formRef, setTab);
  const errorKeys = Object.keys(c.form.formState.errors);
  // New errors on a hidden tab (e.g. the server's 'zip' on the address tab): show that tab.
  const errorSignature = errorKeys.join(',');
  const [seenErrors, setSeenErrors] = useState('');
  if (errorSignature !== seenErrors) {
    setSeenErrors(errorSignature);
    const inTab = (name: string) =>
      groups.find((g) => g.name === name)?.fields.some((f) => errorKeys.includes(f.key)) ?? false;
    const first = groups.find((g) => inTab(g.name));
    if (first && !inTab(tab)) setTab(first.name);
  }

  return (
    <div
      className={`mx-auto w-full max-w-3xl transition-opacity duration-300 ease-out ${c.visible ? 'opacity-100' : 'opacity-0'}`}
      data-visible={c.visible}
    >
      <div className="mb-6">
        <Link
          to={c.listPath}
          className="mb-2 inline-flex items-center gap-1.5 text-sm text-slate-500 hover:text-slate-900"
        >
          <ArrowLeftIcon />
          {listTitle(resource)}
        </Link>
        <h1 className="page-title">{c.title}</h1>
      </div>

      <form
        ref={formRef}
        className="card"
        onSubmit={(e) => void c.submit(e)}
        noValidate
        aria-busy={c.isLoading || undefined}
      >
        <div className="p-6">
          {c.isLoading ? (
            <div role="status" aria-label={uiText.loadingForm} className="grid gap-5 sm:grid-cols-2">
              {resource.fields.map((f) => (
                <div key={f.key} className="space-y-2" data-testid="field-placeholder">
                  <Skeleton className="h-3.5 w-24" />
                  <Skeleton className="h-9 w-full" />
                </div>
              ))}
            </div>
          ) : c.loadFailed ? (
            <p className="text-sm text-slate-500">{uiText.loadFailed}</p>
          ) : groups.length > 1 ? (
            <Tabs
              label={c.title}
              active={tab}
              onChange={setTab}
              items={groups.map((g) => ({
                key: g.name,
                label: g.name,
                flagged: g.fields.some((f) => errorKeys.includes(f.key)),
                content: <FieldGrid fields={g.fields} all={resource.fields} c={c} readOnly={readOnly} />,
              }))}
            />
          ) : (
            <FieldGrid fields={resource.fields} all={resource.fields} c={c} readOnly={readOnly} />
          )}

          {c.serverErrors.length > 0 && (
            <div
              role="alert"
              className="mt-6 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-700"
            >
              <p className="font-medium">{uiText.serverErrors}</p>
              <ul className="mt-2 list-disc space-y-1 pl-5">
                {c.serverErrors.map((e, i) => (
                  <li key={i}>{e}</li>
                ))}
              </ul>
            </div>
          )}
          {children}
          {live && !c.isLoading && !c.loadFailed && (
            <div className="mt-6">
              <LiveBody c={c} fields={resource.fields} render={live} />
            </div>
          )}
        </div>

        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 bg-slate-50/60 px-6 py-4 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" onClick={c.goBack}>
            {messages.common.back}
          </button>
          {!readOnly && (
            <button
              type="submit"
              className="btn-primary"
              disabled={c.isLoading || c.loadFailed || c.isSaving}
            >
              {c.submitLabel}
            </button>
          )}
        </div>
      </form>
      {after}
    </div>
  );
}
