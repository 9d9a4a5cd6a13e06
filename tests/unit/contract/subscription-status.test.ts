/**
 * Property tests of contract/subscription-status.ts: the transition table is pinned literally (a
 * change to it must be deliberate), then `transition`, `eventsFrom` and `subscriptionActions` are
 * checked against it over random event sequences and random facts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RoleId } from '../../../contract/enums';
import {
  actorKindOfRole,
  assertTransition,
  isEditable,
  isLive,
  TransitionRefused,
  eventsFrom,
  subscriptionActions,
  subscriptionStatusIds,
  transition,
  transitions,
  type ActionFacts,
  type ActorKind,
  type SubscriptionEvent,
  type SubscriptionStatusId,
} from '../../../contract/subscription-status';

const SEED = 424_242;
const EVENTS: readonly SubscriptionEvent[] = [
  'setBankTransfer',
  'switchToBankTransfer',
  'confirmBankTransfer',
  'pay',
  'cancel',
  'providerActivated',
  'providerSuspended',
  'providerCanceled',
  'expire',
  'stopRenewal',
  'resumeRenewal',
  'resumeTransferRenewal',
  'collectionExhausted',
  'startTrial',
  'trialExpired',
];
const ACTORS: readonly ActorKind[] = ['admin', 'customer', 'subscriber', 'provider', 'system', 'apiKey'];
const STATUSES: readonly SubscriptionStatusId[] = [1, 2, 3, 4, 5];
const [ACTIVE, NOT_ACTIVE, ACTIVE_NO_RENEWAL, BANK_TRANSFER_PENDING, CANCELED] = [1, 2, 3, 4, 5] as const;

/** Every (status, event, actor) triple. */
const allTriples = STATUSES.flatMap((s) => EVENTS.flatMap((e) => ACTORS.map((a) => [s, e, a] as const)));

describe('transition table', () => {
  it('is exactly the documented set of moves', () => {
    const rows = transitions.map(
      (t) => `${t.from} -${t.event}-> ${t.to} by ${[...t.actors].sort().join('+')}`,
    );
    expect(rows.sort()).toEqual(
      [
        `${NOT_ACTIVE} -setBankTransfer-> ${BANK_TRANSFER_PENDING} by admin+system`,
        `${ACTIVE} -switchToBankTransfer-> ${ACTIVE_NO_RENEWAL} by subscriber`,
        `${BANK_TRANSFER_PENDING} -confirmBankTransfer-> ${ACTIVE_NO_RENEWAL} by admin`,
        `${NOT_ACTIVE} -pay-> ${ACTIVE} by customer+provider`,
        `${ACTIVE_NO_RENEWAL} -pay-> ${ACTIVE} by customer+provider`,
        `${ACTIVE} -cancel-> ${CANCELED} by admin+apiKey`,
        `${NOT_ACTIVE} -providerActivated-> ${ACTIVE} by provider+system`,
        `${ACTIVE} -providerSuspended-> ${NOT_ACTIVE} by provider+system`,
        `${ACTIVE} -providerCanceled-> ${CANCELED} by provider+system`,
        `${NOT_ACTIVE} -providerCanceled-> ${CANCELED} by provider+system`,
        `${ACTIVE_NO_RENEWAL} -expire-> ${NOT_ACTIVE} by system`,
        `${ACTIVE} -stopRenewal-> ${ACTIVE_NO_RENEWAL} by subscriber`,
        `${ACTIVE_NO_RENEWAL} -resumeRenewal-> ${ACTIVE} by subscriber`,
        // Issue 29: a renewal by bank transfer turned off and on by its customer, the status kept.
        `${ACTIVE_NO_RENEWAL} -stopRenewal-> ${ACTIVE_NO_RENEWAL} by subscriber`,
        `${ACTIVE_NO_RENEWAL} -resumeTransferRenewal-> ${ACTIVE_NO_RENEWAL} by subscriber`,
        // Issue 29: the collection ladder's end (the dunning job).
        `${ACTIVE} -collectionExhausted-> ${NOT_ACTIVE} by system`,
        `${ACTIVE_NO_RENEWAL} -collectionExhausted-> ${NOT_ACTIVE} by system`,
        `${BANK_TRANSFER_PENDING} -collectionExhausted-> ${NOT_ACTIVE} by system`,
        // Issue 30: a trial starts live at its creation and ends unpaid by the trials job.
        `${NOT_ACTIVE} -startTrial-> ${ACTIVE_NO_RENEWAL} by admin+apiKey+system`,
        `${ACTIVE_NO_RENEWAL} -trialExpired-> ${NOT_ACTIVE} by system`,
      ].sort(),
    );
    expect(subscriptionStatusIds).toEqual(STATUSES);
  });

  it('has at most one row per (from, event), so a move is never ambiguous', () => {
    const keys = transitions.map((t) => `${t.from}/${t.event}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('trials (issue 30)', () => {
  it('a trial starts live from NotActive for whoever creates a subscription (Admin, API key, the widget as system), never a provider or a customer, and only from NotActive', () => {
    for (const actor of ['admin', 'apiKey', 'system'] as const)
      expect(transition(NOT_ACTIVE, 'startTrial', actor), actor).toBe(ACTIVE_NO_RENEWAL);
    for (const actor of ['provider', 'customer', 'subscriber'] as const)
      expect(transition(NOT_ACTIVE, 'startTrial', actor), actor).toBeNull();
    for (const from of [ACTIVE, ACTIVE_NO_RENEWAL, BANK_TRANSFER_PENDING, CANCELED] as const)
      expect(transition(from, 'startTrial', 'admin'), String(from)).toBeNull();
    expect(isLive(transition(NOT_ACTIVE, 'startTrial', 'admin')!)).toBe(true);
  });

  it('only the system ends an unpaid trial, and only a live one without renewal', () => {
    expect(transition(ACTIVE_NO_RENEWAL, 'trialExpired', 'system')).toBe(NOT_ACTIVE);
    for (const actor of ['admin', 'customer', 'subscriber', 'apiKey', 'provider'] as const)
      expect(transition(ACTIVE_NO_RENEWAL, 'trialExpired', actor), actor).toBeNull();
    for (const from of [ACTIVE, NOT_ACTIVE, BANK_TRANSFER_PENDING, CANCELED] as const)
      expect(transition(from, 'trialExpired', 'system'), String(from)).toBeNull();
    expect(() => assertTransition(ACTIVE, 'trialExpired', 'system')).toThrow(TransitionRefused);
  });

  it('a trial converted by a provider payment uses the existing pay move (ActiveNoRenewal → Active)', () => {
    expect(transition(ACTIVE_NO_RENEWAL, 'pay', 'provider')).toBe(ACTIVE);
    expect(transition(ACTIVE_NO_RENEWAL, 'pay', 'customer')).toBe(ACTIVE);
  });
});

describe('transition', () => {
  it('random (event, actor) sequences from NotActive only ever move along a table row', () => {
    const reached = new Set<SubscriptionStatusId>([NOT_ACTIVE]);
    const moves = new Set<string>();
    const step = fc.tuple(fc.constantFrom(...EVENTS), fc.constantFrom(...ACTORS));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40, size: 'medium' }), (steps) => {
        let status: SubscriptionStatusId = NOT_ACTIVE;
        for (const [event, actor] of steps) {
          const row = transitions.find(
            (t) => t.from === status && t.event === event && t.actors.includes(actor),
          );
          const next = transition(status, event, actor);
          if (row) {
            expect(next).toBe(row.to);
            moves.add(`${status}-${event}`);
          } else {
            expect(next).toBeNull();
          }
          expect(eventsFrom(status, actor).includes(event)).toBe(next !== null);
          const before = status;
          status = next ?? status;
          if (before === CANCELED) expect(status).toBe(CANCELED);
          reached.add(status);
        }
      }),
      { seed: SEED, numRuns: 3000 },
    );
    // The sequences must have exercised the whole machine, or the property proves little.
    expect([...reached].sort()).toEqual([...STATUSES]);
    expect(moves.size).toBe(transitions.length);
  });

  it('agrees with eventsFrom on every (status, event, actor)', () => {
    for (const [status, event, actor] of allTriples) {
      const allowed = eventsFrom(status, actor).includes(event);
      expect(transition(status, event, actor) !== null, `${status} ${event} ${actor}`).toBe(allowed);
    }
  });

  it('Canceled is terminal: no event leads out of it for any actor', () => {
    for (const event of EVENTS) {
      for (const actor of ACTORS) expect(transition(CANCELED, event, actor), `${event} ${actor}`).toBeNull();
    }
    for (const actor of ACTORS) expect(eventsFrom(CANCELED, actor)).toEqual([]);
  });

  it("a payment link's holder can only ever 'pay'", () => {
    for (const [status, event] of allTriples.filter(([, , a]) => a === 'customer')) {
      if (event !== 'pay') expect(transition(status, event, 'customer'), `${status} ${event}`).toBeNull();
    }
    expect(transition(NOT_ACTIVE, 'pay', 'customer')).toBe(ACTIVE);
  });

  it('a signed-in customer only stops, resumes or moves an Active renewal to bank transfer (issue 28), or stops and resumes a renewal by transfer (issue 29)', () => {
    const own: SubscriptionEvent[] = [
      'stopRenewal',
      'resumeRenewal',
      'resumeTransferRenewal',
      'switchToBankTransfer',
    ];
    for (const [status, event] of allTriples.filter(([, , a]) => a === 'subscriber')) {
      if (!own.includes(event))
        expect(transition(status, event, 'subscriber'), `${status} ${event}`).toBeNull();
    }
    for (const status of STATUSES) {
      expect(eventsFrom(status, 'subscriber').every((e) => own.includes(e))).toBe(true);
    }
    expect(transition(ACTIVE, 'switchToBankTransfer', 'subscriber')).toBe(ACTIVE_NO_RENEWAL);
    for (const status of STATUSES.filter((s) => s !== ACTIVE))
      expect(transition(status, 'switchToBankTransfer', 'subscriber')).toBeNull();
    for (const actor of ACTORS.filter((a) => a !== 'subscriber'))
      expect(transition(ACTIVE, 'switchToBankTransfer', actor)).toBeNull();
  });

  it('an admin can never fire provider* or expire events', () => {
    const forbidden: SubscriptionEvent[] = [
      'providerActivated',
      'providerSuspended',
      'providerCanceled',
      'expire',
    ];
    for (const status of STATUSES) {
      for (const event of forbidden)
        expect(transition(status, event, 'admin'), `${status} ${event}`).toBeNull();
      expect(eventsFrom(status, 'admin').some((e) => forbidden.includes(e))).toBe(false);
    }
  });

  it('only the system expires, and only ActiveNoRenewal', () => {
    for (const [status, event, actor] of allTriples.filter(([, e]) => e === 'expire')) {
      const ok = status === ACTIVE_NO_RENEWAL && actor === 'system';
      expect(transition(status, event, actor), `${status} ${actor}`).toBe(ok ? NOT_ACTIVE : null);
    }
  });
});

describe('subscriptionActions', () => {
  const amount = fc.integer({ min: 0, max: 1_000_000_000 });
  const payment = fc
    .record({
      providerSubscriptionId: fc.oneof(fc.constant(null), fc.constant(''), fc.string({ minLength: 1 })),
      amountDue: amount,
      approvedDelta: fc.oneof(
        fc.integer({ min: -2, max: 2 }),
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
      ),
      approvedKnown: fc.boolean(),
    })
    .map(({ providerSubscriptionId, amountDue, approvedDelta, approvedKnown }) => ({
      providerSubscriptionId,
      amountDue,
      ...(approvedKnown ? { approvedAmount: Math.max(0, amountDue + approvedDelta) } : {}),
    }));
  const facts = (status: fc.Arbitrary<number>): fc.Arbitrary<ActionFacts> =>
    fc.record({
      subscriptionStatus: status,
      firstPayment: fc.oneof(payment, fc.constant(null), fc.constant(undefined)),
    });
  const anyFacts = facts(fc.integer({ min: -1, max: 7 }));
  const run = (p: fc.IRawProperty<[ActionFacts]>) => fc.assert(p, { seed: SEED, numRuns: 2000 });

  it('maps roles to actor kinds', () => {
    expect(actorKindOfRole(1)).toBe('admin');
    expect(actorKindOfRole(2)).toBe('admin');
    expect(actorKindOfRole(3)).toBe('subscriber');
  });

  it('is empty for a User (role 3) and for no role, whatever the status', () => {
    run(
      fc.property(anyFacts, (f) => {
        expect(subscriptionActions(f, 3)).toEqual([]);
        expect(subscriptionActions(f, null)).toEqual([]);
      }),
    );
  });

  it('is the same for SuperAdmin (1) as for Admin (2)', () => {
    run(
      fc.property(anyFacts, (f) => {
        expect(subscriptionActions(f, 1 as RoleId)).toEqual(subscriptionActions(f, 2));
      }),
    );
  });

  it("NotActive: 'paymentLink' (with a payment) and 'setBankTransfer'", () => {
    run(
      fc.property(facts(fc.constant(NOT_ACTIVE)), (f) => {
        expect(subscriptionActions(f, 2)).toEqual(
          f.firstPayment ? ['paymentLink', 'setBankTransfer'] : ['setBankTransfer'],
        );
      }),
    );
  });

  it("BankTransferPending: 'manageBankTransfers', and 'confirmActivation' only once approved ≥ due (or unknown)", () => {
    let withConfirm = 0;
    let withoutConfirm = 0;
    run(
      fc.property(facts(fc.constant(BANK_TRANSFER_PENDING)), (f) => {
        const actions = subscriptionActions(f, 2);
        expect(actions[0]).toBe('manageBankTransfers');
        const p = f.firstPayment;
        const covered = !p || p.approvedAmount === undefined || p.approvedAmount >= p.amountDue;
        expect(actions).toEqual(
          covered ? ['manageBankTransfers', 'confirmActivation'] : ['manageBankTransfers'],
        );
        if (covered) withConfirm++;
        else withoutConfirm++;
      }),
    );
    expect(withConfirm).toBeGreaterThan(0);
    expect(withoutConfirm).toBeGreaterThan(0);
  });

  it('BankTransferPending boundary: approved = due confirms, one cent short does not', () => {
    const facts4 = (approvedAmount: number | undefined): ActionFacts => ({
      subscriptionStatus: BANK_TRANSFER_PENDING,
      firstPayment: { providerSubscriptionId: null, amountDue: 12_200, approvedAmount },
    });
    expect(subscriptionActions(facts4(12_200), 2)).toContain('confirmActivation');
    expect(subscriptionActions(facts4(12_199), 2)).not.toContain('confirmActivation');
    expect(subscriptionActions(facts4(undefined), 2)).toContain('confirmActivation');
  });

  it("Active: 'cancel' only when the first payment has a provider subscription id", () => {
    run(
      fc.property(facts(fc.constant(ACTIVE)), (f) => {
        const hasId =
          typeof f.firstPayment?.providerSubscriptionId === 'string' &&
          f.firstPayment.providerSubscriptionId !== '';
        expect(subscriptionActions(f, 2)).toEqual(hasId ? ['cancel'] : []);
      }),
    );
    expect(
      subscriptionActions(
        { subscriptionStatus: ACTIVE, firstPayment: { providerSubscriptionId: 'sub_1', amountDue: 1 } },
        2,
      ),
    ).toEqual(['cancel']);
  });

  it('ActiveNoRenewal, Canceled and unknown statuses: no actions', () => {
    run(
      fc.property(facts(fc.constantFrom(ACTIVE_NO_RENEWAL, CANCELED, 0, 6, -1, 99)), (f) => {
        expect(subscriptionActions(f, 2)).toEqual([]);
      }),
    );
  });
});

describe('status sets', () => {
  it('live: Active and ActiveNoRenewal; editable: NotActive only', () => {
    expect(STATUSES.filter(isLive)).toEqual([ACTIVE, ACTIVE_NO_RENEWAL]);
    expect(STATUSES.filter(isEditable)).toEqual([NOT_ACTIVE]);
  });

  it('assertTransition answers the target or throws TransitionRefused with the move', () => {
    expect(assertTransition(NOT_ACTIVE, 'setBankTransfer', 'admin')).toBe(BANK_TRANSFER_PENDING);
    expect(() => assertTransition(ACTIVE, 'setBankTransfer', 'admin')).toThrow(TransitionRefused);
    expect(() => assertTransition(NOT_ACTIVE, 'setBankTransfer', null)).toThrow(TransitionRefused);
    let refused: unknown;
    try {
      assertTransition(CANCELED, 'pay', 'customer');
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ from: CANCELED, event: 'pay' });
  });
});
