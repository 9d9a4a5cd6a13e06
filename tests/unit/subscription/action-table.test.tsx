/**
 * The billing action table (src/features/subscription/subscription-actions.tsx): one row per action
 * of the contract, and each row shows exactly when the contract's state machine allows it.
 */
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Role, type RoleId, type SubscriptionStatusId } from '../../../contract/enums';
import type { Payment } from '../../../contract/schemas/subscription';
import { subscriptionActions } from '../../../contract/subscription-status';
import {
  actionFactsOf,
  subscriptionActionTable,
  useActionAllowed,
} from '../../../src/features/subscription/subscription-actions';
import { signIn, signOut } from '../components/test-utils';
import { payment, subscription } from './fixtures';

afterEach(() => signOut());

const statuses = [1, 2, 3, 4, 5] as SubscriptionStatusId[];
/** First payments that move the guards: none, unpaid, with a provider id, partly and fully approved. */
const paymentVariants: (Payment[] | undefined)[] = [
  [],
  [payment()],
  [payment({ providerSubscriptionId: 'I-PAYPAL-1' })],
  [payment({ approvedAmount: 20 })],
  [payment({ approvedAmount: 50 })],
];

describe('subscription action table', () => {
  it('has one row per billing action of the contract, each with a label and a way to run', () => {
    const actions = subscriptionActionTable.map((row) => row.action);
    expect(new Set(actions).size).toBe(actions.length);
    expect([...actions].sort()).toEqual(
      ['cancel', 'confirmActivation', 'manageBankTransfers', 'paymentLink', 'setBankTransfer'].sort(),
    );
    for (const row of subscriptionActionTable) {
      expect(row.label).not.toBe('');
      expect(Boolean(row.useCall) || Boolean(row.open)).toBe(true);
    }
  });

  it.each([Role.SuperAdmin, Role.Admin, Role.User] as RoleId[])(
    'role %i: each row shows exactly when subscriptionActions allows it',
    (role) => {
      signIn(role);
      const { result } = renderHook(() => useActionAllowed());
      for (const status of statuses) {
        for (const payments of paymentVariants) {
          const sub = subscription(1, status, { payments: payments ?? [] });
          const expected = subscriptionActions(actionFactsOf(sub), role);
          const shown = subscriptionActionTable
            .filter((row) => result.current(row.action, sub))
            .map((row) => row.action);
          expect(shown, `status ${status}, payments ${JSON.stringify(payments)}`).toEqual(expected);
        }
      }
    },
  );

  it('the server’s allowedActions win when sent, for Admins only', () => {
    signIn(Role.Admin);
    const { result } = renderHook(() => useActionAllowed());
    const sub = subscription(1, 2, { allowedActions: ['setBankTransfer'] });
    expect(subscriptionActionTable.filter((r) => result.current(r.action, sub)).map((r) => r.action)).toEqual(
      ['setBankTransfer'],
    );
    signIn(Role.User);
    const asUser = renderHook(() => useActionAllowed());
    expect(subscriptionActionTable.some((r) => asUser.result.current(r.action, sub))).toBe(false);
  });
});
