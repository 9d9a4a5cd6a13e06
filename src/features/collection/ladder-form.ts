/**
 * The form of 'Solleciti' (issue 29): the ladder's days and its e-mails as the screen edits them,
 * to and from the contract's shape (`collectionSettingsSchema`), with its Italian errors moved to
 * the boxes they are about. Each step's e-mail rides on its step, so a step removed takes its
 * text away and the others follow by position; a text left as Rinnova's default is sent as null
 * (the server then words it for the day it goes out).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, Resolver, ResolverResult } from 'react-hook-form';
import {
  collectionSettingsSchema,
  DEFAULT_FINAL_EMAIL,
  defaultReminderEmail,
  type CollectionEmail,
  type CollectionSettings,
  type CollectionSettingsInput,
} from '../../../contract/schemas/collection';

export interface EmailValues {
  subject: string;
  body: string;
}

export interface LadderValues {
  steps: ({ day: number } & EmailValues)[];
  graceDays: number;
  finalDay: number;
  final: EmailValues;
}

/** The default text of a reminder on `day` (on the due date itself 'scade oggi'). */
export const defaultStepEmail = (day: number): EmailValues =>
  defaultReminderEmail(Number.isFinite(day) ? day : 1);

const same = (a: EmailValues, b: CollectionEmail) =>
  a.subject.trim() === b.subject.trim() && a.body.replace(/\r\n?/g, '\n').trim() === b.body.trim();

/** A text left as (one of) Rinnova's defaults, or empty: the server's default. */
export function isDefaultEmail(e: EmailValues, kind: 'reminder' | 'final'): boolean {
  if (e.subject.trim() === '' && e.body.trim() === '') return true;
  return kind === 'final'
    ? same(e, DEFAULT_FINAL_EMAIL)
    : same(e, defaultReminderEmail(0)) || same(e, defaultReminderEmail(1));
}

const emailOf = (e: EmailValues, kind: 'reminder' | 'final'): CollectionEmail | null =>
  isDefaultEmail(e, kind) ? null : { subject: e.subject, body: e.body };

export function toValues(
  s: Pick<CollectionSettings, 'steps' | 'graceDays' | 'finalDay'> & {
    emails?: CollectionSettings['emails'] | undefined;
  },
): LadderValues {
  return {
    steps: s.steps.map((day, i) => ({ day, ...(s.emails?.steps[i] ?? defaultStepEmail(day)) })),
    graceDays: s.graceDays,
    finalDay: s.finalDay,
    final: { ...(s.emails?.final ?? DEFAULT_FINAL_EMAIL) },
  };
}

/** A box left empty or unreadable (NaN) reads as a value out of range, so its field says why in Italian. */
const orOut = (n: number, out: number) => (Number.isFinite(n) ? n : out);

export function toSettings(v: LadderValues): CollectionSettingsInput {
  return {
    steps: v.steps.map((s) => orOut(s.day, -1)),
    graceDays: orOut(v.graceDays, -1),
    finalDay: orOut(v.finalDay, 0),
    emails: {
      steps: v.steps.map((s) => emailOf(s, 'reminder')),
      final: emailOf(v.final, 'final'),
    },
  };
}

/** Where an error of the contract's shape goes on the form ('' = nowhere). */
export function formFieldOf(key: string): string {
  if (key === 'steps') return 'steps.root';
  if (/^steps\.\d+$/.test(key)) return `${key}.day`;
  const step = /^emails\.steps\.(\d+)\.(subject|body)$/.exec(key);
  if (step) return `steps.${step[1]}.${step[2]}`;
  const final = /^emails\.final\.(subject|body)$/.exec(key);
  if (final) return `final.${final[1]}`;
  if (key === 'graceDays' || key === 'finalDay') return key;
  return '';
}

type Issue = { message?: string; type?: string };
const issueOf = (v: unknown): Issue | null =>
  v && typeof v === 'object' && typeof (v as Issue).message === 'string' ? (v as Issue) : null;

/** Every error zodResolver answered, by its dotted path (a field array's own at `root` or on itself). */
function flatten(errors: unknown, prefix = '', out: Record<string, Issue> = {}): Record<string, Issue> {
  if (!errors || typeof errors !== 'object') return out;
  const own = issueOf(errors);
  if (own && prefix) out[prefix] = own;
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    if (key === 'ref' || key === 'message' || key === 'type' || key === 'types') continue;
    if (key === 'root') {
      const root = issueOf(value);
      if (root) out[prefix] = root;
      continue;
    }
    flatten(value, prefix ? `${prefix}.${key}` : key, out);
  }
  return out;
}

function set(target: Record<string, unknown>, path: string[], issue: Issue) {
  let node = target;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[path.at(-1)!] ??= { type: issue.type ?? 'custom', message: issue.message };
}

const schemaResolver = zodResolver(collectionSettingsSchema) as unknown as Resolver<
  CollectionSettingsInput,
  unknown,
  CollectionSettingsInput
>;

/** `collectionSettingsSchema` on the form's values, each error on its box. */
export const ladderResolver: Resolver<LadderValues, unknown, CollectionSettingsInput> = async (
  values,
  context,
  options,
) => {
  const result = (await schemaResolver(
    toSettings(values),
    context,
    options as never,
  )) as ResolverResult<CollectionSettingsInput>;
  if (Object.keys(result.errors).length === 0)
    return result as ResolverResult<LadderValues, CollectionSettingsInput>;
  const errors: Record<string, unknown> = {};
  for (const [key, issue] of Object.entries(flatten(result.errors))) {
    const field = formFieldOf(key);
    if (field) set(errors, field.split('.'), issue);
  }
  return { values: {}, errors: errors as FieldErrors<LadderValues> };
};
