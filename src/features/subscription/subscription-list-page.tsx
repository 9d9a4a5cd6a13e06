import { useQuery } from '@tanstack/react-query';
import type { Subscription } from '../../../contract/schemas/subscription';
import { ListPage, type RowAction } from '../../components/list-page';
import { subscriptionResource } from '../../entities/subscription/subscription.resource';
import { useCan } from '../../lib/access';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { getPublicSettings } from '../../entities/payment-provider/public-settings';
import { useSyncSubscriptions, type SyncProvider } from './api/sync-provider';
import { subscriptionActionTable, useActionAllowed, useSubscriptionActions } from './subscription-actions';

/**
 * /subscription 'Gestisci Sottoscrizioni': the generic list with the billing actions of spec §2
 * (subscription-actions.tsx), each shown only on the rows where the state machine allows it. No
 * delete: subscriptions are cancelled. A User gets their own rows, no actions, no create button.
 */
export function SubscriptionListPage() {
  const can = useCan();
  const allowed = useActionAllowed();
  const { run, dialogs } = useSubscriptionActions();
  const canManage = can('subscription', 'manage');
  // A User has no actions at all: no 'Azioni' column.
  const rowActions: RowAction[] = (canManage ? subscriptionActionTable : []).map((row) => ({
    label: row.label,
    icon: row.icon,
    tone: row.tone === 'danger' ? 'danger' : 'default',
    hidden: (r) => !allowed(row.action, r as unknown as Subscription),
    onClick: (r) => void run(row, r as unknown as Subscription),
  }));
  return (
    <>
      <ListPage
        resource={subscriptionResource}
        rowActions={rowActions}
        allowDelete={false}
        toolbar={
          canManage ? (
            <>
              <SyncButton provider="paypal" />
              <SyncStripeButton />
            </>
          ) : undefined
        }
      />
      {dialogs}
    </>
  );
}

const syncLabels: Record<SyncProvider, string> = {
  paypal: 'Sincronizza con PayPal',
  stripe: 'Sincronizza con Stripe',
};

/** 'Sincronizza con PayPal' / 'Sincronizza con Stripe' (spec §2 'A sync action with the payment provider exists'). */
function SyncButton({ provider }: { provider: SyncProvider }) {
  const sync = useSyncSubscriptions(provider);
  return (
    <button type="button" className="btn-secondary" disabled={sync.isPending} onClick={() => sync.mutate()}>
      {sync.isPending ? 'Sincronizzazione…' : syncLabels[provider]}
    </button>
  );
}

/** 'Sincronizza con Stripe': shown only when the tenant has an active Stripe (issue 16). */
function SyncStripeButton() {
  const tenantId = useSelectedTenantId();
  const settings = useQuery({
    queryKey: ['public', 'providerSettings', tenantId],
    queryFn: () => getPublicSettings(tenantId!),
    enabled: tenantId !== null,
    staleTime: 60_000,
  });
  if (!settings.data?.stripe) return null;
  return <SyncButton provider="stripe" />;
}
