/**
 * The subscription state machine, in one pure module that the server enforces and the SPA reads
 * (api-contract 'Billing calls'). Every status change goes through `transition`: a move that the
 * table does not list, or that the actor may not make, is refused (the server answers 409).
 */
import { Role, SubscriptionStatus, type RoleId, type SubscriptionStatusId } from './enums';
import { messages } from './messages';

export { SubscriptionStatus, type SubscriptionStatusId };

export const subscriptionStatusIds = [1, 2, 3, 4, 5] as const satisfies readonly SubscriptionStatusId[];

/** Enum names, as `subscriptionStatusName` carries them ('Active', 'NotActive', …). */
export const subscriptionStatusNames: Record<SubscriptionStatusId, keyof typeof SubscriptionStatus> = {
  1: 'Active',
  2: 'NotActive',
  3: 'ActiveNoRenewal',
  4: 'BankTransferPending',
  5: 'Canceled',
};

/** Italian labels (spec §3). */
export const subscriptionStatusLabels: Record<SubscriptionStatusId, string> = messages.subscriptionStatus;

/**
 * Badge tone in tables (spec §4): green Active, red NotActive, yellow ActiveNoRenewal, blue
 * BankTransferPending; anything else (Canceled included) is drawn as 'N/D'.
 */
export const subscriptionStatusTones: Partial<
  Record<SubscriptionStatusId, 'green' | 'red' | 'yellow' | 'blue'>
> = {
  1: 'green',
  2: 'red',
  3: 'yellow',
  4: 'blue',
};

/**
 * 'Live' statuses: the customer has what they paid for. The dashboard's active subscriptions and
 * MRR, the monthly report's moves, the entitlement API (ActiveNoRenewal until its next billing
 * date) and the partial indexes that serve them all read this set.
 */
export const liveStatuses = [
  SubscriptionStatus.Active,
  SubscriptionStatus.ActiveNoRenewal,
] as const satisfies readonly SubscriptionStatusId[];

export function isLive(status: SubscriptionStatusId): boolean {
  return (liveStatuses as readonly SubscriptionStatusId[]).includes(status);
}

/** Plan and agreed price may change only while nothing was paid: NotActive (spec §4). */
export const editableStatuses = [
  SubscriptionStatus.NotActive,
] as const satisfies readonly SubscriptionStatusId[];

export function isEditable(status: SubscriptionStatusId): boolean {
  return (editableStatuses as readonly SubscriptionStatusId[]).includes(status);
}

export function isSubscriptionStatusId(value: unknown): value is SubscriptionStatusId {
  return value === 1 || value === 2 || value === 3 || value === 4 || value === 5;
}

/**
 * Who acts: a signed-in person (by role), a customer holding a payment token, a provider, a job,
 * or a tenant API key with the `write` scope (the tenant's own product, through api/v1).
 * `subscriber` is a signed-in customer (role User) acting on their own subscription in the
 * customer area (issue 28: 'Disattiva il rinnovo'); the routes check that it is their own.
 */
export type ActorKind = 'admin' | 'customer' | 'subscriber' | 'provider' | 'system' | 'apiKey';

/**
 * The actor kind of a signed-in role: Admin and SuperAdmin act as 'admin'; a User (a customer
 * signed in to the customer area, issue 28) acts as 'subscriber' — on their own subscriptions
 * only, which the customer area's routes check before any move. ('customer' is the holder of a
 * payment link, signed in or not.)
 */
export function actorKindOfRole(roleId: RoleId): ActorKind | null {
  if (roleId === Role.Admin || roleId === Role.SuperAdmin) return 'admin';
  return roleId === Role.User ? 'subscriber' : null;
}

export type SubscriptionEvent =
  | 'setBankTransfer'
  | 'switchToBankTransfer'
  | 'confirmBankTransfer'
  | 'pay'
  | 'cancel'
  | 'providerActivated'
  | 'providerSuspended'
  | 'providerCanceled'
  | 'expire'
  | 'stopRenewal'
  | 'resumeRenewal'
  | 'resumeTransferRenewal'
  | 'collectionExhausted'
  | 'startTrial'
  | 'trialExpired';

/**
 * History rows of changes that move no status (issue 30, 'Cambia piano'): the plan changed at once
 * or on its day, and a change scheduled for a later day. Not in the state machine's table.
 */
export type HistoryOnlyEvent =
  | 'changePlan'
  | 'schedulePlanChange'
  | 'planChangeCanceled'
  // Issue 30, 'Sospendi incasso': paused, resumed early ('Riprendi ora'), ended by its periods.
  | 'pauseCollection'
  | 'resumeCollection'
  | 'pauseEnded'
  // Issue 30, 'Addebito una tantum': a one-off charge added, deleted.
  | 'oneOffCharge'
  | 'oneOffChargeDeleted'
  // Issue 30 ('Prove'): the trial's first payment was paid. A payment by PayPal or Stripe also
  // moves the status ('pay': ActiveNoRenewal → Active); a bank transfer keeps ActiveNoRenewal.
  | 'trialConverted'
  // Issue 30 ('Cambia piano'): a renewal payment wholly covered by the residual credit, paid by it.
  | 'creditSettled'
  // Issue 30: a plan change to a plan outside the running coupon's plans ended the coupon.
  | 'couponEnded'
  // Issue 30: a card payment on a withdrawn payment's link (a Stripe Checkout completed in the race)
  // refunded after commit, its Stripe subscription cancelled; nothing recorded as paid.
  | 'withdrawnCheckoutRefunded'
  // The same on a payment already paid another way (a transfer, PayPal, another session).
  | 'paidCheckoutRefunded'
  // Issue 30: PayPal's renewal took another amount than the one Rinnova asks (e.g. a plan change
  // the customer has not approved at PayPal yet): recorded as taken, its invoice blocked.
  | 'providerAmountDiffers';

export interface Transition {
  from: SubscriptionStatusId;
  event: SubscriptionEvent;
  to: SubscriptionStatusId;
  /** Who may make the move. */
  actors: readonly ActorKind[];
}

const S = SubscriptionStatus;

/** Every allowed move; nothing else is. */
export const transitions: readonly Transition[] = [
  // An Admin switches an unpaid subscription to bank transfer (irreversible); the expiry job does
  // it for a customer who chose the bank transfer for the next period (below).
  { from: S.NotActive, event: 'setBankTransfer', to: S.BankTransferPending, actors: ['admin', 'system'] },
  // The customer area's 'Passa al bonifico' (issue 28): the card or PayPal subscription is
  // cancelled at the provider at the period's end; the paid period runs on without renewal, and
  // the next period is a bank-transfer payment.
  { from: S.Active, event: 'switchToBankTransfer', to: S.ActiveNoRenewal, actors: ['subscriber'] },
  // Once an approved transfer covers the payment, the Admin confirms: active, without renewal.
  { from: S.BankTransferPending, event: 'confirmBankTransfer', to: S.ActiveNoRenewal, actors: ['admin'] },
  // The customer pays on the public page; the provider confirms the subscription (at once, or
  // later by its webhook when its first charge was still to be taken: PayPal's APPROVED).
  { from: S.NotActive, event: 'pay', to: S.Active, actors: ['customer', 'provider'] },
  // A renewal reminder's link paid with PayPal: automatic renewal from then on.
  { from: S.ActiveNoRenewal, event: 'pay', to: S.Active, actors: ['customer', 'provider'] },
  // Cancelling in Rinnova (after the provider has cancelled): by an Admin, or by the tenant's
  // product through its API key (POST api/v1/subscriptions/{id}/cancel).
  { from: S.Active, event: 'cancel', to: S.Canceled, actors: ['admin', 'apiKey'] },
  // What the provider reports (webhooks, sync).
  { from: S.NotActive, event: 'providerActivated', to: S.Active, actors: ['provider', 'system'] },
  { from: S.Active, event: 'providerSuspended', to: S.NotActive, actors: ['provider', 'system'] },
  { from: S.Active, event: 'providerCanceled', to: S.Canceled, actors: ['provider', 'system'] },
  { from: S.NotActive, event: 'providerCanceled', to: S.Canceled, actors: ['provider', 'system'] },
  // A subscription without renewal ends when its next billing date has passed.
  { from: S.ActiveNoRenewal, event: 'expire', to: S.NotActive, actors: ['system'] },
  // The customer turns the renewal off (cancelled at the provider at the period's end) and, until
  // the next billing date, back on (issue 28). Which ActiveNoRenewal may resume (only one the
  // customer turned off, before its date) is the billing's guard, not the table's.
  { from: S.Active, event: 'stopRenewal', to: S.ActiveNoRenewal, actors: ['subscriber'] },
  { from: S.ActiveNoRenewal, event: 'resumeRenewal', to: S.Active, actors: ['subscriber'] },
  // A subscription that renews by bank transfer (issue 29) is ActiveNoRenewal (nothing is charged
  // automatically) yet renews: its customer turns that off and back on too, the status unchanged.
  // Which ActiveNoRenewal renews by transfer is the billing's guard.
  { from: S.ActiveNoRenewal, event: 'stopRenewal', to: S.ActiveNoRenewal, actors: ['subscriber'] },
  { from: S.ActiveNoRenewal, event: 'resumeTransferRenewal', to: S.ActiveNoRenewal, actors: ['subscriber'] },
  // Collection (issue 29): the tenant's ladder ended with the payment still unpaid; the dunning
  // job ends the subscription (the provider's is stopped at the provider after the move).
  { from: S.Active, event: 'collectionExhausted', to: S.NotActive, actors: ['system'] },
  { from: S.ActiveNoRenewal, event: 'collectionExhausted', to: S.NotActive, actors: ['system'] },
  { from: S.BankTransferPending, event: 'collectionExhausted', to: S.NotActive, actors: ['system'] },
  // Trials (issue 30): a subscription created on a plan with trial days is usable at once without
  // a payment. It is ActiveNoRenewal (live, nothing charged automatically) until `trialEndsAt`,
  // its next billing date; whoever creates the subscription starts it, in the same unit (an Admin,
  // the tenant's API key, the widget's confirmation as the system: a payment link's holder or a
  // signed-in customer never creates one, so never starts one). Its
  // first payment (the period from `trialEndsAt`) paid converts it ('pay' to Active by a provider,
  // or kept ActiveNoRenewal by a bank transfer: the history's 'trialConverted'); unpaid when the
  // trial ends, the trials job ends it.
  {
    from: S.NotActive,
    event: 'startTrial',
    to: S.ActiveNoRenewal,
    actors: ['admin', 'apiKey', 'system'],
  },
  { from: S.ActiveNoRenewal, event: 'trialExpired', to: S.NotActive, actors: ['system'] },
];

/** The status `event` leads to from `from` for `actor`, or null when the move is not allowed. */
export function transition(
  from: SubscriptionStatusId,
  event: SubscriptionEvent,
  actor: ActorKind,
): SubscriptionStatusId | null {
  const t = transitions.find((x) => x.from === from && x.event === event);
  return t && t.actors.includes(actor) ? t.to : null;
}

/** A move the state machine refuses: `from`'s label and the event's label, for the Italian message. */
export class TransitionRefused extends Error {
  constructor(
    readonly from: SubscriptionStatusId,
    readonly event: SubscriptionEvent,
  ) {
    super(`${from} -${event}-> refused`);
  }
}

/** The status `event` leads to, or throws TransitionRefused (the server answers 409). */
export function assertTransition(
  from: SubscriptionStatusId,
  event: SubscriptionEvent,
  actor: ActorKind | null,
): SubscriptionStatusId {
  const to = actor ? transition(from, event, actor) : null;
  if (to === null) throw new TransitionRefused(from, event);
  return to;
}

/** Events `actor` may fire from `status`. */
export function eventsFrom(status: SubscriptionStatusId, actor: ActorKind): SubscriptionEvent[] {
  return transitions.filter((t) => t.from === status && t.actors.includes(actor)).map((t) => t.event);
}

/** Italian names of the events, for the history timeline. */
export const subscriptionEventLabels: Record<SubscriptionEvent | 'create' | HistoryOnlyEvent, string> = {
  create: 'Sottoscrizione creata',
  changePlan: 'Piano cambiato',
  schedulePlanChange: 'Cambio di piano programmato',
  planChangeCanceled: 'Cambio di piano programmato annullato',
  pauseCollection: 'Incasso sospeso',
  resumeCollection: 'Incasso ripreso',
  pauseEnded: 'Sospensione dell’incasso terminata',
  oneOffCharge: 'Addebito una tantum',
  oneOffChargeDeleted: 'Addebito una tantum eliminato',
  setBankTransfer: 'Pagamento impostato su bonifico bancario',
  switchToBankTransfer: 'Il cliente è passato al bonifico dal prossimo periodo',
  confirmBankTransfer: 'Attivazione confermata dopo il bonifico',
  pay: 'Pagamento completato dal cliente',
  cancel: 'Sottoscrizione cancellata',
  providerActivated: 'Attivata dal fornitore di pagamento',
  providerSuspended: 'Sospesa dal fornitore di pagamento',
  providerCanceled: 'Cancellata dal fornitore di pagamento',
  expire: 'Scaduta senza rinnovo',
  stopRenewal: 'Rinnovo disattivato dal cliente',
  resumeRenewal: 'Rinnovo riattivato dal cliente',
  resumeTransferRenewal: 'Rinnovo con bonifico riattivato dal cliente',
  collectionExhausted: 'Sospesa per mancato pagamento (solleciti esauriti)',
  startTrial: 'Periodo di prova iniziato',
  trialExpired: 'Periodo di prova terminato senza pagamento',
  trialConverted: 'Prova convertita: primo pagamento ricevuto',
  creditSettled: 'Rinnovo pagato con il credito residuo',
  couponEnded: 'Coupon terminato con il cambio di piano',
  withdrawnCheckoutRefunded: 'Pagamento con carta su un link ritirato: rimborsato',
  paidCheckoutRefunded: 'Pagamento con carta su un pagamento già saldato: rimborsato',
  providerAmountDiffers: 'Rinnovo addebitato dal fornitore per un importo diverso',
};

/**
 * The actions of the subscription list (spec §2, §4), each shown only when the state machine and
 * its guard allow it:
 * - paymentLink: NotActive with a payment;
 * - setBankTransfer: NotActive (irreversible, after confirmation);
 * - manageBankTransfers: BankTransferPending (the modal);
 * - confirmActivation: BankTransferPending, once approved transfers cover the amount due;
 * - cancel: Active, only when the first payment has a provider subscription id.
 */
export type SubscriptionAction =
  'paymentLink' | 'setBankTransfer' | 'manageBankTransfers' | 'confirmActivation' | 'cancel';

export interface ActionFacts {
  subscriptionStatus: number;
  /** First payment's facts: absent when the subscription has no payment. */
  firstPayment?: { providerSubscriptionId: string | null; amountDue: number; approvedAmount?: number } | null;
}

export function subscriptionActions(sub: ActionFacts, roleId: RoleId | null): SubscriptionAction[] {
  if (
    roleId === null ||
    actorKindOfRole(roleId) !== 'admin' ||
    !isSubscriptionStatusId(sub.subscriptionStatus)
  )
    return [];
  const status = sub.subscriptionStatus;
  const events = eventsFrom(status, 'admin');
  const payment = sub.firstPayment ?? null;
  const actions: SubscriptionAction[] = [];
  if (status === S.NotActive && payment) actions.push('paymentLink');
  if (events.includes('setBankTransfer')) actions.push('setBankTransfer');
  if (events.includes('confirmBankTransfer')) {
    actions.push('manageBankTransfers');
    // A server that does not say how much is approved leaves the check to its 409.
    if (!payment || payment.approvedAmount === undefined || payment.approvedAmount >= payment.amountDue)
      actions.push('confirmActivation');
  }
  if (events.includes('cancel') && payment?.providerSubscriptionId) actions.push('cancel');
  return actions;
}
