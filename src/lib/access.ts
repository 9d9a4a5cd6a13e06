/**
 * `can(resource, action, record?)`: the one question the SPA asks before showing a route, a
 * button or a section. The answer comes from the contract's access table (contract/access.ts),
 * which the server enforces; here it only hides what the server would refuse. A record narrows
 * the answer where a row's state matters (a subscription's billing actions follow its state
 * machine: contract/subscription-status.ts).
 */
import { useCallback } from 'react';
import { roleCan, type ActionOf, type ResourceName } from '../../contract/access';
import type { RoleId } from '../../contract/enums';
import {
  subscriptionActions,
  type ActionFacts,
  type SubscriptionAction,
} from '../../contract/subscription-status';
import { getSession, useSession } from './session';

export type { ActionOf, ResourceName };

/** What a record adds to the question: today a subscription's facts for its billing actions. */
export type AccessRecord = ActionFacts;

function decide<R extends ResourceName>(
  role: RoleId | null,
  resource: R,
  action: ActionOf<R> | SubscriptionAction,
  record?: AccessRecord,
): boolean {
  if (resource === 'subscription' && record && isSubscriptionAction(action)) {
    return subscriptionActions(record, role).includes(action);
  }
  return roleCan(role, resource, action as ActionOf<R>);
}

const subscriptionActionNames: readonly string[] = [
  'paymentLink',
  'setBankTransfer',
  'manageBankTransfers',
  'confirmActivation',
  'cancel',
] satisfies SubscriptionAction[];
function isSubscriptionAction(action: string): action is SubscriptionAction {
  return subscriptionActionNames.includes(action);
}

/** Outside React (loaders, the axios layer): the current session's answer. */
export function can<R extends ResourceName>(
  resource: R,
  action: ActionOf<R> | (R extends 'subscription' ? SubscriptionAction : never),
  record?: AccessRecord,
): boolean {
  return decide(getSession()?.user.role ?? null, resource, action, record);
}

/** In a component: `const can = useCan(); can('plan', 'edit')`, re-rendered when the session changes. */
export function useCan() {
  const role = useSession()?.user.role ?? null;
  return useCallback(
    <R extends ResourceName>(
      resource: R,
      action: ActionOf<R> | (R extends 'subscription' ? SubscriptionAction : never),
      record?: AccessRecord,
    ) => decide(role, resource, action, record),
    [role],
  );
}
