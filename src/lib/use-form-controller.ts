/**
 * The form screen's controller (spec §2 'Shared form screens', §4 'Forms', §8): create or edit
 * mode from the :id parameter, loading, react-hook-form state, save with toasts, fade in/out,
 * navigation back. The page only renders what this returns.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type FieldPath, type Resolver } from 'react-hook-form';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { messages } from '../../contract/messages';
import { entityHooks, serverFieldErrors } from './entity-hooks';
import { formatDecimalInput, getPath, parseDecimal } from './formatters';
import { notify } from './notify';
import {
  accessOf,
  createTitle,
  editTitle,
  type FieldDef,
  type FormValues,
  type ResourceDef,
} from './resource';
import { useCan } from './access';

/** Spec §9: the form fades in after 100 ms and, after a save, out for 300 ms before going back. */
export const FADE_IN_DELAY_MS = 100;
export const FADE_OUT_MS = 300;

/** 'new', '' or any non-numeric id means create mode; a positive integer means edit. */
export function parseEntityId(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 ? n : null;
}

function emptyValue(field: FieldDef): unknown {
  switch (field.kind) {
    case 'checkbox':
      return false;
    case 'number':
      return '';
    case 'select':
    case 'choice':
      return null;
    default:
      return '';
  }
}

/** Decimal places a number field shows: those of its step (0.01 → 2), else as many as needed. */
export function placesOf(field: FieldDef): number | null {
  if (field.kind !== 'number' || field.step === undefined || field.step >= 1) return null;
  return Math.max(0, -Math.floor(Math.log10(field.step)));
}

/** A number as its field shows it, the Italian way: 49.5 → '49,50' (step 0.01), 22 → '22,00'. */
export function numberText(field: FieldDef, value: number): string {
  const places = placesOf(field);
  return places === null ? String(value).replace('.', ',') : formatDecimalInput(value, places);
}

/** A new form: each field's declared default, else its empty value (numbers as Italian text). */
export function emptyFormValues(fields: readonly FieldDef[]): FormValues {
  return Object.fromEntries(
    fields.map((f) => {
      const v = f.defaultValue !== undefined ? f.defaultValue : emptyValue(f);
      return [f.key, f.kind === 'number' && typeof v === 'number' ? numberText(f, v) : v];
    }),
  );
}

/** The loaded row as form values: every declared field (read at `from`), null text as '', secrets empty. */
export function toFormValues(fields: readonly FieldDef[], row: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = f.writeOnly ? undefined : getPath(row, f.from ?? f.key);
    values[f.key] = v === null || v === undefined ? emptyValue(f) : v;
    // Amounts read the Italian way, with the places their step asks for (29.9 → '29,90').
    if (f.kind === 'number' && typeof v === 'number') values[f.key] = numberText(f, v);
  }
  return values;
}

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * Body of Create / Update: the form object (numbers and ids as numbers, empty as null). An empty
 * write-only field is left out, so the server keeps the stored secret. With `keepUnreadable`, a
 * number that does not read stays as typed (so client validation says 'invalid', not 'required').
 */
export function toBody(fields: readonly FieldDef[], values: FormValues, keepUnreadable = false): FormValues {
  const flat = flatBody(fields, values, keepUnreadable);
  const body: FormValues = {};
  const objects = new Map<string, Record<string, unknown>>();
  for (const f of fields) {
    if (!(f.key in flat)) continue;
    const [head, part] = (f.to ?? f.key).split('.', 2) as [string, string | undefined];
    if (part === undefined) body[head] = flat[f.key];
    else objects.set(head, { ...objects.get(head), [part]: flat[f.key] });
  }
  // An object whose every part is empty is sent as null (e.g. no cassa previdenziale).
  for (const [head, parts] of objects) body[head] = Object.values(parts).every(isBlank) ? null : parts;
  return body;
}

function flatBody(fields: readonly FieldDef[], values: FormValues, keepUnreadable: boolean): FormValues {
  const body: FormValues = {};
  for (const f of fields) {
    const v = values[f.key];
    if (f.writeOnly && isBlank(v)) continue;
    const option = f.kind === 'choice' ? f.options.find((o) => String(o.value) === String(v)) : undefined;
    if (option && typeof option.value === 'string') body[f.key] = option.value;
    else if (f.kind === 'number') {
      const n = parseDecimal(v);
      body[f.key] = n !== null ? n : keepUnreadable && !isBlank(v) ? v : null;
    } else if (f.kind === 'select' || f.kind === 'choice') {
      const n = v === '' || v === null || v === undefined ? NaN : Number(v);
      body[f.key] = Number.isFinite(n) ? n : null;
    } else if (f.kind === 'checkbox') body[f.key] = v === true;
    else body[f.key] = v ?? '';
  }
  return body;
}

/** The field a server error key names: its key, its `from` path or the path's last part, any case. */
export function fieldForKey(fields: readonly FieldDef[], key: string): FieldDef | undefined {
  const k = key.toLowerCase();
  const last = k.split('.').pop() ?? k;
  return (
    fields.find((f) => f.key.toLowerCase() === k || f.from?.toLowerCase() === k) ??
    fields.find((f) => f.key.toLowerCase() === last)
  );
}

/** Where the form was opened from (set by the list's links), so a save goes back to that list. */
export interface FormLocationState {
  from?: string;
}

export function useFormController<T extends { id: number }>(resource: ResourceDef<T>) {
  const hooks = entityHooks(resource);
  const navigate = useNavigate();
  const location = useLocation();
  const { id: idParam } = useParams();
  const id = parseEntityId(idParam);
  const isEdit = id !== null;
  const locationState = (location.state ?? null) as FormLocationState | null;
  const from =
    typeof locationState?.from === 'string' && locationState.from.startsWith('/') ? locationState.from : null;
  const listPath = from ?? `/${resource.name}`;

  const detail = hooks.useDetail(id);
  const create = hooks.useCreate();
  const updateMutation = hooks.useUpdate();

  const defaults = useMemo(() => emptyFormValues(resource.fields), [resource.fields]);
  const loaded = useMemo(
    () => (detail.data ? toFormValues(resource.fields, detail.data as Record<string, unknown>) : undefined),
    [detail.data, resource.fields],
  );

  const schema = resource.schema as z.ZodType<FormValues, FormValues> | undefined;
  // The schema checks the body the server would get: numbers read the Italian way, `id` when
  // editing (create-only rules such as the provider's secret apply to new items only).
  const resolver = useMemo<Resolver<FormValues> | undefined>(() => {
    if (!schema) return undefined;
    const check = zodResolver(schema) as Resolver<FormValues>;
    return (values, context, options) => {
      const body = toBody(resource.fields, values, true);
      return check(isEdit ? { ...body, id } : body, context, options);
    };
  }, [schema, resource.fields, isEdit, id]);
  const form = useForm<FormValues>({
    defaultValues: defaults,
    // Async data: react-hook-form resets to `values` whenever they (re)arrive.
    values: loaded,
    // A refetch of the row (e.g. after its plan features change) must not wipe what the user typed.
    resetOptions: { keepDirtyValues: true },
    mode: 'onBlur',
    resolver,
  });

  // Load failure / empty data toasts (spec §8), once per failure.
  useEffect(() => {
    if (!isEdit) return;
    if (detail.isError) {
      console.error(`Errore nel recupero di ${resource.name} ${id}:`, detail.error);
      notify.error(messages.http.loadError, { toastId: `load-${resource.name}-${id}` });
    } else if (detail.isSuccess && detail.data === null) {
      notify.warning(messages.http.noData, { toastId: `empty-${resource.name}-${id}` });
    }
  }, [isEdit, detail.isError, detail.isSuccess, detail.data, detail.error, resource.name, id]);

  // Fade in ~100 ms after mount; fade out after a save. Visibility is derived, so a save that
  // lands before the fade-in timer fires still fades out.
  const [entered, setEntered] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setEntered(true), FADE_IN_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const leaveTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(leaveTimer.current), []);

  const [errors, setErrors] = useState<string[]>([]);
  const [leaving, setLeaving] = useState(false);

  // The router's first entry has the key 'default': the form was opened directly (typed URL, reload).
  const openedDirectly = location.key === 'default';

  /** 'Indietro' (spec: back one page); opened directly (no page before it in the app), the list. */
  const goBack = useCallback(() => {
    if (openedDirectly) void navigate(listPath);
    else void navigate(-1);
  }, [navigate, listPath, openedDirectly]);

  /**
   * After a save: back to the list the person came from (the list's own page and filters), never
   * to an unrelated page that happened to be open before; a create with `afterCreate: 'edit'`
   * stays on the new item.
   */
  const leaveTo = useCallback(
    (createdId: number | null) => {
      if (createdId !== null) {
        void navigate(`/${resource.name}/${createdId}`, { replace: true, state: location.state });
        return;
      }
      // Opened from a list's link, that list is the entry before this one: step back to it (no
      // duplicate entry in history). Otherwise the entity's own list, never whatever came before.
      if (from && !openedDirectly) void navigate(-1);
      else void navigate(listPath);
    },
    [navigate, resource.name, location.state, from, listPath, openedDirectly],
  );

  const submit = form.handleSubmit(async (values) => {
    setErrors([]);
    const body = toBody(resource.fields, values);
    try {
      let stayOn: number | null = null;
      if (isEdit) {
        await updateMutation.mutateAsync({ ...body, id });
        notify.success(resource.messages?.updated ?? messages.http.updated);
      } else {
        const created = (await create.mutateAsync(body)) as { id?: unknown } | null;
        notify.success(resource.messages?.created ?? messages.http.created);
        if (resource.afterCreate === 'edit' && typeof created?.id === 'number') stayOn = created.id;
      }
      if (stayOn !== null) {
        leaveTo(stayOn);
        return;
      }
      setLeaving(true);
      leaveTimer.current = window.setTimeout(() => leaveTo(null), FADE_OUT_MS);
    } catch (error) {
      console.error(`Errore durante il salvataggio di ${resource.name}:`, error);
      const found = serverFieldErrors(error);
      // Each message on its field; what names no field of this form is listed under the form.
      const general = [...found.general];
      let first = true;
      for (const [key, message] of Object.entries(found.fields)) {
        const field = fieldForKey(resource.fields, key);
        if (!field) {
          general.push(message);
          continue;
        }
        form.setError(
          field.key as FieldPath<FormValues>,
          { type: 'server', message },
          { shouldFocus: first },
        );
        first = false;
      }
      notify.error(resource.messages?.saveFailed?.(found.all) ?? messages.http.saveError);
      setErrors([...new Set(general)]);
    }
  });

  const can = useCan();
  const name = accessOf(resource);
  const canSave = name !== null && can(name, isEdit ? 'edit' : 'create');

  return {
    resource,
    id,
    isEdit,
    title: isEdit ? editTitle(resource) : createTitle(resource),
    submitLabel: isEdit ? messages.common.save : messages.common.create,
    /** Edit mode while the row loads: skeleton. */
    isLoading: isEdit && detail.isPending,
    loadFailed: isEdit && (detail.isError || (detail.isSuccess && detail.data === null)),
    isSaving: create.isPending || updateMutation.isPending || leaving,
    canSave,
    form,
    submit,
    /** Server messages that belong to no field of the form (keys never shown). */
    serverErrors: errors,
    visible: entered && !leaving,
    goBack,
    /** The list this form returns to (the one it was opened from, with its page and filters). */
    listPath,
  };
}

export type FormController = ReturnType<typeof useFormController>;
