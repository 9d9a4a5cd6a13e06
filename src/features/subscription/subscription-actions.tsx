/**
 * The billing actions of a subscription (spec §2, §4), one row each: what the button says and
 * shows, whether it asks first, what it says when done, and which hook makes the call. Whether a
 * row shows on a subscription is the contract's state machine (`can('subscription', action,
 * facts)`: contract/subscription-status.ts `subscriptionActions`), or the server's
 * `allowedActions` when it sends them.
 *
 * Adding a billing action: one transition row in the contract, one service function on the
 * server, one file in ./api with its fetcher and hook, one row here.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { messages } from '../../../contract/messages';
import type { Subscription } from '../../../contract/schemas/subscription';
import type { ActionFacts, SubscriptionAction } from '../../../contract/subscription-status';
import { confirmAction } from '../../components/confirm-delete';
import { BadgeCheckIcon, BanIcon, BankIcon, LinkIcon, ReceiptIcon } from '../../components/icons';
import { useCan } from '../../lib/access';
import { notify } from '../../lib/notify';
import { useCancelSubscription } from './api/cancel-subscription';
import { useConfirmActivation } from './api/confirm-activation';
import { useCreatePaymentLink } from './api/create-payment-link';
import { useSetBankTransfer } from './api/set-bank-transfer';
import { BankTransferModal } from './bank-transfer-modal';
import { PaymentLinkModal } from './payment-link-modal';
import { subscriptionText as t } from './subscription-text';

/** What an action opens: the payment link, or the bank transfers of the subscription. */
export type ActionDialog = { kind: 'link'; link: string } | { kind: 'transfers'; subscription: Subscription };

/** The call behind a row, as its hook gives it: `call` rejects when the call fails (already reported). */
interface ActionCall {
  call: (sub: Subscription) => Promise<unknown>;
  isPending: boolean;
}

export interface SubscriptionActionRow {
  action: SubscriptionAction;
  label: string;
  icon: ReactNode;
  /** The detail page's button: primary (the next step), secondary, or danger; the list draws danger in red. */
  tone: 'primary' | 'secondary' | 'danger';
  /** Asked before the call (sweetalert2); absent: the action runs at once. */
  confirm?: { title: string; text: string; confirmText: string; tone?: 'primary' | 'danger' };
  /** Toasted once the call succeeds. */
  success?: string;
  /** The hook that makes the call; absent for an action that only opens a dialog. */
  useCall?: () => ActionCall;
  /** The dialog opened afterwards (with the call's result). */
  open?: (sub: Subscription, result: unknown) => ActionDialog;
}

/** The payment a link is for: the first one not yet paid (renewals add paid ones after it). */
const paymentToPay = (sub: Subscription) => sub.payments?.find((p) => !p.paidAt) ?? sub.payments?.[0];

/** A hook whose variables are the subscription's id. */
const byId =
  (useHook: () => { mutateAsync: (id: number) => Promise<unknown>; isPending: boolean }) =>
  (): ActionCall => {
    const m = useHook();
    return { call: (sub) => m.mutateAsync(sub.id), isPending: m.isPending };
  };

/** In the order they are shown. */
export const subscriptionActionTable: readonly SubscriptionActionRow[] = [
  {
    action: 'paymentLink',
    label: t.actions.paymentLink,
    icon: <LinkIcon />,
    tone: 'primary',
    useCall: () => {
      const m = useCreatePaymentLink();
      return { call: (sub) => m.mutateAsync(paymentToPay(sub)?.id), isPending: m.isPending };
    },
    open: (_sub, link) => ({ kind: 'link', link: String(link) }),
  },
  {
    action: 'setBankTransfer',
    label: t.actions.setBankTransfer,
    icon: <BankIcon />,
    tone: 'secondary',
    confirm: {
      title: t.confirmBankTransfer.title,
      text: t.confirmBankTransfer.text,
      confirmText: t.confirmBankTransfer.confirm,
      tone: 'primary',
    },
    success: t.bankTransferSet,
    useCall: byId(useSetBankTransfer),
  },
  {
    action: 'manageBankTransfers',
    label: t.actions.manageBankTransfers,
    icon: <ReceiptIcon />,
    tone: 'secondary',
    open: (sub) => ({ kind: 'transfers', subscription: sub }),
  },
  {
    action: 'confirmActivation',
    label: t.actions.confirmActivation,
    icon: <BadgeCheckIcon />,
    tone: 'primary',
    success: t.activationConfirmed,
    useCall: byId(useConfirmActivation),
  },
  {
    action: 'cancel',
    label: t.actions.cancel,
    icon: <BanIcon />,
    tone: 'danger',
    confirm: {
      title: t.confirmCancel.title,
      text: t.confirmCancel.text,
      confirmText: t.confirmCancel.confirm,
    },
    success: t.canceled,
    useCall: byId(useCancelSubscription),
  },
];

/** The state machine's facts of a subscription row (its first payment decides the guards). */
export function actionFactsOf(sub: Partial<Subscription>): ActionFacts {
  return { subscriptionStatus: Number(sub.subscriptionStatus), firstPayment: sub.payments?.[0] ?? null };
}

/**
 * Whether `action` shows on `sub` for the signed-in person: Admins only (`manage`), then the
 * server's `allowedActions` when it sends them, else the contract's state machine.
 */
export function useActionAllowed() {
  const can = useCan();
  return useCallback(
    (action: SubscriptionAction, sub: Partial<Subscription>) => {
      if (!can('subscription', 'manage')) return false;
      if (Array.isArray(sub.allowedActions)) return sub.allowedActions.includes(action);
      return can('subscription', action, actionFactsOf(sub));
    },
    [can],
  );
}

/**
 * Runs the table's rows, for the list and the detail page: `run(row, sub)` asks first where the
 * row says so, makes the call with the row's hook (failures are toasted by the one error path,
 * app/query-client.ts), toasts the row's success and opens its dialog; `dialogs` renders them;
 * `pending` is true while a call is under way (one at a time).
 */
export function useSubscriptionActions() {
  // The table is fixed: its hooks are called in the same order on every render.
  const calls = subscriptionActionTable.map((row) => row.useCall?.());
  const pending = calls.some((c) => c?.isPending);
  const [dialog, setDialog] = useState<ActionDialog | null>(null);
  const close = useCallback(() => setDialog(null), []);

  async function run(row: SubscriptionActionRow, sub: Subscription): Promise<void> {
    if (pending) return;
    if (row.confirm) {
      const ok = await confirmAction({ ...row.confirm, cancelText: messages.deleteDialog.cancel });
      if (!ok) return;
    }
    let result: unknown;
    const call = calls[subscriptionActionTable.indexOf(row)];
    if (call) {
      try {
        result = await call.call(sub);
      } catch {
        return; // reported once by the query client's error path
      }
    }
    if (row.success) notify.success(row.success);
    if (row.open) setDialog(row.open(sub, result));
  }

  const dialogs =
    dialog?.kind === 'link' ? (
      <PaymentLinkModal link={dialog.link} onClose={close} />
    ) : dialog?.kind === 'transfers' ? (
      <BankTransferModal subscription={dialog.subscription} onClose={close} />
    ) : null;

  return { run, dialogs, pending };
}
