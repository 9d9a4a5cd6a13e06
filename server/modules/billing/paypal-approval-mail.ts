/**
 * The e-mail asking a customer to approve something at PayPal (issue 30: a coupon applied by the
 * Admin, a plan change): a PayPal revise waits for the buyer's consent, so the customer gets the
 * approve link (with the area's sign-in link) through the e-mail outbox, in the caller's unit. The
 * callers keep their own once-only rule (their row's `mailed_at`, set in the same unit).
 */
import { and, eq } from 'drizzle-orm';
import { tenants, userTenants, users } from '../../db/schema';
import { escapeHtml } from '../../lib/html';
import { layout, withSignInLink } from '../../mail/templates';
import type { UnitOfWork } from '../../unit-of-work/unit-of-work';

export interface PayPalApprovalTexts {
  subject: (tenantName: string) => string;
  /** What changes, e.g. '… ha cambiato il tuo abbonamento al piano …'. */
  what: (tenantName: string) => string;
  /** Why the link (PayPal keeps the old terms until approved). */
  how: string;
  /** The link's words, e.g. 'Approva il nuovo piano su PayPal'. */
  linkText: string;
  approveUrl: string;
}

/** Writes the approval e-mail to the outbox; false when the customer has no e-mail address. */
export async function mailPayPalApproval(
  w: UnitOfWork,
  userId: number,
  texts: PayPalApprovalTexts,
): Promise<boolean> {
  const [who] = await w.tx
    .select({ email: users.email, name: userTenants.name })
    .from(users)
    .leftJoin(userTenants, and(eq(userTenants.userId, users.id), eq(userTenants.tenantId, w.tenantId)))
    .where(eq(users.id, userId));
  if (!who?.email) return false;
  const [tenant] = await w.tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, w.tenantId));
  const tenantName = tenant?.name ?? '';
  const subject = texts.subject(tenantName);
  const greeting = `Gentile ${who.name ?? who.email},`;
  const what = texts.what(tenantName);
  await w.outbox.email(
    withSignInLink(
      {
        to: who.email,
        subject,
        text: `${greeting}\n\n${what}\n${texts.how}\n${texts.linkText}: ${texts.approveUrl}\n`,
        html: layout(
          subject,
          `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(what)}</p><p>${escapeHtml(texts.how)}</p>` +
            `<p><a href="${escapeHtml(texts.approveUrl)}">${escapeHtml(texts.linkText)}</a></p>`,
        ),
      },
      userId,
    ),
  );
  return true;
}
