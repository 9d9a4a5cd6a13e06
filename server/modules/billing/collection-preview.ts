/**
 * The preview of 'Solleciti' (issue 29, `POST api/collection/settings/preview`): one of the
 * ladder's e-mails as the customer would receive it, rendered by the functions the dunning job
 * sends through (collectionReminderMail / collectionExhaustedMail, withSignInLink, the sign-in
 * link filled as the mailer fills it), for a sample payment: the tenant's own name and bank
 * details (sample ones while it has no IBAN), a sample customer, plan, amount and reference.
 */
import { eq } from 'drizzle-orm';
import { loginLinkPath } from '../../../contract/login-link';
import type {
  CollectionEmail,
  CollectionPreview,
  CollectionPreviewInput,
} from '../../../contract/schemas/collection';
import { causaleOf, paymentUrlOf } from '../../../contract/schemas/payment';
import { tenants } from '../../db/schema';
import { collectionExhaustedMail, collectionReminderMail } from '../../mail/collection-templates';
import { fillSignInLink } from '../../mail/sign-in-link';
import { withSignInLink } from '../../mail/templates';
import type { TenantScope } from '../../unit-of-work/unit-of-work';
import { addDays, collectionSettingsOf, romeDay } from './collection.service';
import { italianDay } from './dunning';
import { formatEur } from './subscription.service';

/** The sample payment of the preview (the tenant's name and bank details are its own). */
export const PREVIEW_SAMPLE = {
  customer: 'Mario Rossi',
  email: 'mario.rossi@example.it',
  plan: 'Professional',
  amountCents: 12_200,
  paymentId: 42,
  iban: 'IT60 X054 2811 1010 0000 0123 456',
  /** Stands for the token of the payment link and of the sign-in link. */
  token: 'anteprima',
} as const;

/** The subject and message the preview renders: empty ones are the default's (as on save). */
const textOf = (input: CollectionPreviewInput): CollectionEmail => ({
  subject: input.subject,
  body: input.body,
});

export async function previewCollectionEmail(
  scope: TenantScope,
  input: CollectionPreviewInput,
  now: Date,
  publicUrl: string,
): Promise<CollectionPreview> {
  const [tenant] = await scope.tx
    .select({
      name: tenants.name,
      legalName: tenants.legalName,
      iban: tenants.iban,
      holder: tenants.accountHolder,
    })
    .from(tenants)
    .where(eq(tenants.id, scope.tenantId));
  const ladder = await collectionSettingsOf(scope);
  const tenantName = tenant?.name ?? 'La tua azienda';
  const graceDays = input.graceDays ?? ladder.graceDays;
  const day =
    input.day ??
    (input.step === 'final' ? ladder.finalDay : (ladder.steps[input.step] ?? ladder.steps.at(-1) ?? 0));
  // The sample payment fell due `day` days ago: the e-mail is the one of today.
  const dueDate = addDays(romeDay(now), -day);
  const reference = causaleOf(scope.tenantId, PREVIEW_SAMPLE.paymentId);
  const details = {
    tenantName,
    planName: PREVIEW_SAMPLE.plan,
    dueOn: italianDay(dueDate),
    amount: formatEur(PREVIEW_SAMPLE.amountCents),
    reference,
    daysOverdue: day,
    graceEndsOn: italianDay(addDays(dueDate, graceDays)),
  };
  const message =
    input.step === 'final'
      ? collectionExhaustedMail(PREVIEW_SAMPLE.email, PREVIEW_SAMPLE.customer, details, textOf(input))
      : collectionReminderMail(
          PREVIEW_SAMPLE.email,
          PREVIEW_SAMPLE.customer,
          {
            ...details,
            how:
              input.method === 'bankTransfer'
                ? {
                    kind: 'transfer',
                    beneficiary: tenant?.holder ?? tenant?.legalName ?? tenantName,
                    iban: tenant?.iban ?? PREVIEW_SAMPLE.iban,
                    causale: reference,
                  }
                : { kind: 'link', url: paymentUrlOf(publicUrl, PREVIEW_SAMPLE.token) },
          },
          textOf(input),
        );
  // As the mailer sends it: the sign-in link filled in.
  const sent = fillSignInLink(
    withSignInLink(message, 0),
    `${publicUrl.replace(/\/+$/, '')}${loginLinkPath(PREVIEW_SAMPLE.token)}`,
  );
  return { subject: sent.subject, text: sent.text, html: sent.html };
}
