import { Role } from '../../../contract/enums';
import type { Subscription } from '../../../contract/schemas/subscription';
import { ListPage, type RowAction } from '../../components/list-page';
import { useSession } from '../../lib/session';
import { subscriptionResource } from '../../entities/subscription/subscription.resource';
import { actionsOf } from './subscription-api';
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
      <ListPage resource={subscriptionResource} rowActions={rowActions} allowDelete={false} />
      {dialogs}
    </>
  );
}
