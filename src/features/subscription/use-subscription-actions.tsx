import { useCallback, useState, type ReactNode } from 'react';
import { messages } from '../../../contract/messages';
import type { Subscription } from '../../../contract/schemas/subscription';
import type { SubscriptionAction } from '../../../contract/subscription-status';
import { confirmAction } from '../../components/confirm-delete';
import { BadgeCheckIcon, BanIcon, BankIcon, LinkIcon, ReceiptIcon } from '../../components/icons';
import { isHandledByInterceptor } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { BankTransferModal } from './bank-transfer-modal';
import { PaymentLinkModal } from './payment-link-modal';
import { failureMessage, subscriptionCalls, useInvalidateSubscriptions } from './subscription-api';
import { subscriptionText as t } from './subscription-text';

/** Label, icon and tone of each action, in the order they are shown. */
export const actionDefs: readonly {
  action: SubscriptionAction;
  label: string;
  icon: ReactNode;
  danger?: boolean;
}[] = [
  { action: 'paymentLink', label: t.actions.paymentLink, icon: <LinkIcon /> },
  { action: 'setBankTransfer', label: t.actions.setBankTransfer, icon: <BankIcon /> },
  { action: 'manageBankTransfers', label: t.actions.manageBankTransfers, icon: <ReceiptIcon /> },
  { action: 'confirmActivation', label: t.actions.confirmActivation, icon: <BadgeCheckIcon /> },
  { action: 'cancel', label: t.actions.cancel, icon: <BanIcon />, danger: true },
];

type Dialog = { kind: 'link'; link: string } | { kind: 'transfers'; subscription: Subscription } | null;

/**
 * The subscription actions of spec §2/§4, shared by the list and the detail page: `run(action,
 * subscription)` does the call (after a confirmation where the spec asks one), toasts the outcome
 * and refreshes the subscriptions; `dialogs` renders the payment-link and bank-transfer modals.
 */
export function useSubscriptionActions() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [pending, setPending] = useState<string | null>(null);
  const close = useCallback(() => setDialog(null), []);

  const report = (error: unknown, fallback: string) => {
    console.error('Azione sulla sottoscrizione non riuscita:', error);
    if (!isHandledByInterceptor(error)) notify.error(failureMessage(error, fallback));
  };

  async function run(action: SubscriptionAction, sub: Subscription): Promise<void> {
    const key = `${sub.id}:${action}`;
    if (pending) return;
    if (action === 'manageBankTransfers') {
      setDialog({ kind: 'transfers', subscription: sub });
      return;
    }
    if (action === 'setBankTransfer') {
      const ok = await confirmAction({
        title: t.confirmBankTransfer.title,
        text: t.confirmBankTransfer.text,
        confirmText: t.confirmBankTransfer.confirm,
        cancelText: messages.deleteDialog.cancel,
        tone: 'primary',
      });
      if (!ok) return;
    }
    if (action === 'cancel') {
      const ok = await confirmAction({
        title: t.confirmCancel.title,
        text: t.confirmCancel.text,
        confirmText: t.confirmCancel.confirm,
        cancelText: messages.deleteDialog.cancel,
      });
      if (!ok) return;
    }
    setPending(key);
    try {
      switch (action) {
        case 'paymentLink': {
          // The payment to pay: the first one not yet paid (renewals add paid ones after it).
          const payment = sub.payments?.find((p) => !p.paidAt) ?? sub.payments?.[0];
          try {
            if (!payment) throw new Error('nessun pagamento');
            const link = await subscriptionCalls.createPaymentToken(payment.id, tenantId);
            setDialog({ kind: 'link', link });
          } catch (error) {
            report(error, messages.subscription.paymentLinkError);
          }
          break;
        }
        case 'setBankTransfer':
          try {
            await subscriptionCalls.setPaymentWithBankTransfer(sub.id, tenantId);
            notify.success(t.bankTransferSet);
          } catch (error) {
            report(error, t.actionFailed);
          }
          break;
        case 'confirmActivation':
          try {
            await subscriptionCalls.setActiveNoRenewal(sub.id, tenantId);
            notify.success(t.activationConfirmed);
          } catch (error) {
            report(error, t.actionFailed);
          }
          break;
        case 'cancel':
          try {
            await subscriptionCalls.cancel(sub.id, tenantId);
            notify.success(t.canceled);
          } catch (error) {
            report(error, t.actionFailed);
          }
          break;
      }
    } finally {
      setPending(null);
      // A refused move may mean the row is stale: refresh in every case.
      if (action !== 'paymentLink') void invalidate();
    }
  }

  const dialogs =
    dialog?.kind === 'link' ? (
      <PaymentLinkModal link={dialog.link} onClose={close} />
    ) : dialog?.kind === 'transfers' ? (
      <BankTransferModal subscription={dialog.subscription} onClose={close} />
    ) : null;

  return { run, dialogs, pending };
}
