/**
 * The form screen's controller (spec §2 'Shared form screens', §4 'Forms', §8): create or edit
 * mode from the :id parameter, loading, react-hook-form state, save with toasts, fade in/out,
 * navigation back. The page only renders what this returns.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { messages } from '../../contract/messages';
import { entityHooks, serverErrors } from './entity-hooks';
import { getPath } from './formatters';
import { notify } from './notify';
import { createTitle, editTitle, type FieldDef, type FormValues, type ResourceDef } from './resource';
import { useRoleAllowed } from './use-list-controller';

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
    case 'select':
    case 'choice':
      return null;
    default:
      return '';
  }
}

/** A new form: each field's declared default, else its empty value. */
export function emptyFormValues(fields: readonly FieldDef[]): FormValues {
  return Object.fromEntries(
    fields.map((f) => [f.key, f.defaultValue !== undefined ? f.defaultValue : emptyValue(f)]),
  );
}

/** The loaded row as form values: every declared field (read at `from`), null text as '', secrets empty. */
export function toFormValues(fields: readonly FieldDef[], row: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = f.writeOnly ? undefined : getPath(row, f.from ?? f.key);
    values[f.key] = v === null || v === undefined ? emptyValue(f) : v;
    // Amounts keep the places their step asks for (29.9 shows as 29.90 with step 0.01).
    if (f.kind === 'number' && typeof v === 'number' && f.step !== undefined && f.step < 1) {
      values[f.key] = v.toFixed(Math.max(0, -Math.floor(Math.log10(f.step))));
    }
  }
  return values;
}

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * Body of Create / Update: the form object (numbers and ids as numbers, empty as null). An empty
 * write-only field is left out, so the server keeps the stored secret.
 */
export function toBody(fields: readonly FieldDef[], values: FormValues): FormValues {
  const body: FormValues = {};
  for (const f of fields) {
    const v = values[f.key];
    if (f.writeOnly && isBlank(v)) continue;
    const option = f.kind === 'choice' ? f.options.find((o) => String(o.value) === String(v)) : undefined;
    if (option && typeof option.value === 'string') body[f.key] = option.value;
    else if (f.kind === 'number' || f.kind === 'select' || f.kind === 'choice') {
      const n = v === '' || v === null || v === undefined ? NaN : Number(v);
      body[f.key] = Number.isFinite(n) ? n : null;
    } else if (f.kind === 'checkbox') body[f.key] = v === true;
    else body[f.key] = v ?? '';
  }
  return body;
}

export function useFormController<T extends { id: number }>(resource: ResourceDef<T>) {
  const hooks = entityHooks(resource);
  const navigate = useNavigate();
  const { id: idParam } = useParams();
  const id = parseEntityId(idParam);
  const isEdit = id !== null;

  const detail = hooks.useDetail(id);
  const create = hooks.useCreate();
  const updateMutation = hooks.useUpdate();

  const defaults = useMemo(() => emptyFormValues(resource.fields), [resource.fields]);
  const loaded = useMemo(
    () => (detail.data ? toFormValues(resource.fields, detail.data as Record<string, unknown>) : undefined),
    [detail.data, resource.fields],
  );

  const schema = resource.schema as z.ZodType<FormValues, FormValues> | undefined;
  const form = useForm<FormValues>({
    defaultValues: defaults,
    // Async data: react-hook-form resets to `values` whenever they (re)arrive.
    values: loaded,
    // A refetch of the row (e.g. after its plan features change) must not wipe what the user typed.
    resetOptions: { keepDirtyValues: true },
    mode: 'onBlur',
    resolver: schema ? (zodResolver(schema) as Resolver<FormValues>) : undefined,
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

  const goBack = useCallback(() => {
    void navigate(-1);
  }, [navigate]);

  const submit = form.handleSubmit(async (values) => {
    setErrors([]);
    const body = toBody(resource.fields, values);
    try {
      if (isEdit) {
        await updateMutation.mutateAsync({ ...body, id });
        notify.success(resource.messages?.updated ?? messages.http.updated);
      } else {
        await create.mutateAsync(body);
        notify.success(resource.messages?.created ?? messages.http.created);
      }
      setLeaving(true);
      leaveTimer.current = window.setTimeout(goBack, FADE_OUT_MS);
    } catch (error) {
      console.error(`Errore durante il salvataggio di ${resource.name}:`, error);
      const found = serverErrors(error);
      notify.error(resource.messages?.saveFailed?.(found) ?? messages.http.saveError);
      setErrors(found);
    }
  });

  const canSave = useRoleAllowed(isEdit ? resource.roles?.edit : resource.roles?.create);

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
    serverErrors: errors,
    visible: entered && !leaving,
    goBack,
  };
}

export type FormController = ReturnType<typeof useFormController>;
