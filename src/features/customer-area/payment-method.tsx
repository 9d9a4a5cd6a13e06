/**
 * 'Metodo di pagamento' on a subscription card of the customer area (issue 28): for a card or
 * PayPal subscription, the provider's own page (Stripe's billing portal, PayPal's automatic
 * payments) opened in place of the area; and 'Passa al bonifico', after a confirmation: the
 * renewal stops at the provider at the end of the paid period and the next period is paid by
 * bank transfer (the instructions come by e-mail and under 'Paga ora').
 */
import { useCallback, useState } from 'react';
import { SubscriptionStatus } from '../../../contract/enums';
import type { Subscription } from '../../../contract/schemas/subscription';
import { BankIcon, ExternalIcon } from '../../components/icons';
import { Modal } from '../../components/modal';
import { formatDate } from '../../lib/formatters';
import { notify } from '../../lib/notify';
import { usePaymentMethod } from './api/own-payments';
import { openPaymentPage } from './pay-now';

const providerNames = { stripe: 'Stripe', paypal: 'PayPal' } as const;

/** The provider the subscription renews through now: its latest payment taken by one. */
export function providerOf(s: Subscription): 'stripe' | 'paypal' | null {
  const last = [...s.payments]
    .reverse()
    .find((p) => p.providerSubscriptionId !== null && (p.method === 'stripe' || p.method === 'paypal'));
  return last ? (last.method as 'stripe' | 'paypal') : null;
}

/** The next period's payment is already a bank transfer (the switch was made). */
function nextByTransfer(s: Subscription): boolean {
  return s.payments.some((p) => p.method === 'bankTransfer' && p.paidAt === null);
}

export function PaymentMethod({ s }: { s: Subscription }) {
  const change = usePaymentMethod();
  const [confirming, setConfirming] = useState(false);
  const close = useCallback(() => setConfirming(false), []);
  const provider = providerOf(s);
  const active = s.subscriptionStatus === SubscriptionStatus.Active;
  const noRenewal = s.subscriptionStatus === SubscriptionStatus.ActiveNoRenewal;
  if (!active && !noRenewal) return null;
  const switched = noRenewal && nextByTransfer(s);
  const from = formatDate(s.nextBillingDate);

  const portal = () =>
    change.mutate(
      { subscriptionId: s.id, action: 'portal' },
      { onSuccess: ({ data }) => data.action === 'portal' && openPaymentPage.go(data.url) },
    );
  const toBankTransfer = () =>
    change.mutate(
      { subscriptionId: s.id, action: 'bankTransfer' },
      {
        onSuccess: ({ message }) => {
          setConfirming(false);
          if (message) notify.success(message);
        },
      },
    );

  return (
    <div
      className="mt-4 border-t border-slate-100 pt-3"
      role="group"
      aria-label={`Metodo di pagamento di ${s.plan.name}`}
    >
      {switched && (
        <p className="flex items-start gap-2 text-sm text-slate-600">
          <BankIcon /> Dal {from} pagherai con bonifico: IBAN, importo e causale ti arrivano per email.
        </p>
      )}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {provider && active && (
          <button
            type="button"
            className="btn-secondary min-h-11"
            disabled={change.isPending}
            onClick={portal}
          >
            <ExternalIcon /> {provider === 'stripe' ? 'Gestisci la carta' : 'Gestisci su PayPal'}
          </button>
        )}
        {!switched && (
          <button
            type="button"
            className="btn-ghost min-h-11"
            disabled={change.isPending}
            onClick={() => setConfirming(true)}
          >
            <BankIcon /> Passa al bonifico
          </button>
        )}
      </div>
      {confirming && (
        <Modal
          title="Passare al bonifico?"
          onClose={close}
          footer={
            <>
              <button type="button" className="btn-secondary min-h-11" onClick={close}>
                Annulla
              </button>
              <button
                type="button"
                className="btn-primary min-h-11"
                disabled={change.isPending}
                onClick={toBankTransfer}
              >
                {change.isPending ? 'Un momento…' : 'Sì, passa al bonifico'}
              </button>
            </>
          }
        >
          <p className="text-sm text-slate-700">
            {provider && active
              ? `Il rinnovo automatico con ${providerNames[provider]} si ferma alla fine del periodo già pagato. `
              : ''}
            Dal {from} pagherai {s.plan.name} con bonifico bancario: ti invieremo IBAN, importo e causale, e
            li troverai qui sotto «Paga ora».
          </p>
        </Modal>
      )}
    </div>
  );
}
