import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Role } from '../../../contract/enums';
import { messages } from '../../../contract/messages';
import type { Subscription } from '../../../contract/schemas/subscription';
import { ListPage, type RowAction } from '../../components/list-page';
import { useSession } from '../../lib/session';
import { subscriptionResource } from '../../entities/subscription/subscription.resource';
import { isHandledByInterceptor } from '../../lib/http-errors';
import { notify } from '../../lib/notify';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { getPublicSettings } from '../payment/payment-api';
import { actionsOf, subscriptionCalls, useInvalidateSubscriptions } from './subscription-api';
import { actionDefs, useSubscriptionActions } from './use-subscription-actions';

/**
 * /subscription 'Gestisci Sottoscrizioni': the generic list with the billing actions of spec §2,
 * each shown only on the rows where the state machine allows it. No delete: subscriptions are
 * cancelled. A User gets their own rows, no actions, no create button.
 */
export function SubscriptionListPage() {
  const role = useSession()?.user.role ?? null;
  const { run, dialogs } = useSubscriptionActions();
  const isAdmin = role === Role.Admin || role === Role.SuperAdmin;
  // A User has no actions at all: no 'Azioni' column.
  const rowActions: RowAction[] = (isAdmin ? actionDefs : []).map((d) => ({
    label: d.label,
    icon: d.icon,
    tone: d.danger ? 'danger' : 'default',
    hidden: (row) => !actionsOf(row as unknown as Subscription, role).includes(d.action),
    onClick: (row) => void run(d.action, row as unknown as Subscription),
  }));
  return (
    <>
      <ListPage
        resource={subscriptionResource}
        rowActions={rowActions}
        allowDelete={false}
        toolbar={
          isAdmin ? (
            <>
              <SyncPaypalButton />
              <SyncStripeButton />
            </>
          ) : undefined
        }
      />
      {dialogs}
    </>
  );
}

/** 'Sincronizza con PayPal' (spec §2 'A sync action with the payment provider exists'). */
function SyncPaypalButton() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  const [busy, setBusy] = useState(false);
  async function sync() {
    setBusy(true);
    try {
      const n = await subscriptionCalls.syncPaypal(tenantId);
      notify.success(messages.subscription.syncDone(n));
    } catch (error) {
      console.error('Sincronizzazione PayPal non riuscita:', error);
      if (!isHandledByInterceptor(error)) notify.error(messages.subscription.syncError);
    } finally {
      setBusy(false);
      void invalidate();
    }
  }
  return (
    <button type="button" className="btn-secondary" disabled={busy} onClick={() => void sync()}>
      {busy ? 'Sincronizzazione…' : 'Sincronizza con PayPal'}
    </button>
  );
}

/** 'Sincronizza con Stripe': shown only when the tenant has an active Stripe (issue 16). */
function SyncStripeButton() {
  const tenantId = useSelectedTenantId();
  const invalidate = useInvalidateSubscriptions();
  const [busy, setBusy] = useState(false);
  const settings = useQuery({
    queryKey: ['public', 'providerSettings', tenantId],
    queryFn: () => getPublicSettings(tenantId!),
    enabled: tenantId !== null,
    staleTime: 60_000,
  });
  if (!settings.data?.stripe) return null;
  async function sync() {
    setBusy(true);
    try {
      const n = await subscriptionCalls.syncStripe(tenantId);
      notify.success(messages.subscription.syncStripeDone(n));
    } catch (error) {
      console.error('Sincronizzazione Stripe non riuscita:', error);
      if (!isHandledByInterceptor(error)) notify.error(messages.subscription.syncStripeError);
    } finally {
      setBusy(false);
      void invalidate();
    }
  }
  return (
    <button type="button" className="btn-secondary" disabled={busy} onClick={() => void sync()}>
      {busy ? 'Sincronizzazione…' : 'Sincronizza con Stripe'}
    </button>
  );
}
