import { useId, useState } from 'react';
import { SubscriptionStatus } from '../../../contract/enums';
import {
  ONE_OFF_COLLECT,
  oneOffCollectLabels,
  oneOffStatusLabels,
  type OneOffCharge,
  type OneOffCollect,
} from '../../../contract/schemas/one-off-charge';
import type { Subscription } from '../../../contract/schemas/subscription';
import { LinkIcon, PlusIcon, TrashIcon } from '../../components/icons';
import { Modal } from '../../components/modal';
import { formatCurrency, formatDate } from '../../lib/formatters';
import { notify } from '../../lib/notify';
import { useAddOneOffCharge, useDeleteOneOffCharge, useOneOffCharges } from './api/one-off-charges';
import { splitFieldErrors } from '../../lib/form-errors';
import { oneOffText as t } from './one-off-text';
import { useCreatePaymentLink } from './api/create-payment-link';
import { PaymentLinkModal } from './payment-link-modal';

const statusTone: Record<OneOffCharge['status'], string> = {
  pending: 'border-amber-200 bg-amber-50 text-amber-800',
  paid: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  deleted: 'border-slate-200 bg-slate-50 text-slate-600',
};

/** 'Addebiti una tantum' on the subscription page (issue 30): the list with status, add, delete a pending one. */
export function OneOffChargesCard({ sub, canManage }: { sub: Subscription; canManage: boolean }) {
  const charges = useOneOffCharges(sub.id);
  const remove = useDeleteOneOffCharge();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<OneOffCharge | null>(null);
  // A pending charge with its own payment, not charged by Stripe: its payment link (paid by card).
  const makeLink = useCreatePaymentLink();
  const [link, setLink] = useState<string | null>(null);
  const linkable = (c: OneOffCharge) =>
    c.status === 'pending' &&
    c.collect === 'now' &&
    c.paymentId !== null &&
    sub.payments.find((p) => p.id === c.paymentId)?.method !== 'stripe';
  const live =
    sub.subscriptionStatus === SubscriptionStatus.Active ||
    sub.subscriptionStatus === SubscriptionStatus.ActiveNoRenewal;
  const list = charges.data ?? [];
  if (!canManage) return null;
  return (
    <section className="card p-5" aria-labelledby="one-off-title">
      <h2 id="one-off-title" className="text-base font-semibold text-slate-900">
        {t.sectionTitle}
      </h2>
      {list.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{live ? t.intro : t.empty}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" aria-label={t.sectionTitle}>
          {list.map((c) => (
            <li key={c.id} className="flex items-start justify-between gap-3 py-2.5">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900">{c.description}</p>
                <p className="text-xs text-slate-600">
                  {c.quantity} × {formatCurrency(c.unitPrice)} · {formatDate(c.createdAt)}
                </p>
                <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs">
                  <span className={`rounded-full border px-2 py-0.5 font-medium ${statusTone[c.status]}`}>
                    {oneOffStatusLabels[c.status]}
                  </span>
                  {c.amountDue !== null && c.status !== 'deleted' && (
                    <span className="font-semibold text-slate-900 tabular-nums">
                      {formatCurrency(c.amountDue)}
                    </span>
                  )}
                </p>
              </div>
              {c.status === 'pending' && (
                <div className="flex shrink-0 gap-1.5">
                  {linkable(c) && (
                    <button
                      type="button"
                      className="btn-secondary px-2.5"
                      aria-label={t.linkLabel(c.description)}
                      title={t.link}
                      disabled={makeLink.isPending}
                      onClick={() =>
                        void makeLink
                          .mutateAsync(c.paymentId!)
                          .then(setLink)
                          .catch(() => undefined)
                      }
                    >
                      <LinkIcon />
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn-secondary px-2.5"
                    aria-label={t.removeLabel(c.description)}
                    title={t.remove}
                    onClick={() => setRemoving(c)}
                  >
                    <TrashIcon />
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {live && (
        <button
          type="button"
          className="btn-secondary mt-3 w-full justify-start"
          onClick={() => setAdding(true)}
        >
          <PlusIcon />
          {t.add}
        </button>
      )}
      {adding && <OneOffDialog sub={sub} onClose={() => setAdding(false)} />}
      {link && <PaymentLinkModal link={link} onClose={() => setLink(null)} />}
      {removing && (
        <Modal
          title={t.removeTitle}
          onClose={() => setRemoving(null)}
          footer={
            <>
              <button type="button" className="btn-secondary" onClick={() => setRemoving(null)}>
                {t.cancel}
              </button>
              <button
                type="button"
                className="btn-danger"
                disabled={remove.isPending}
                onClick={() =>
                  void remove
                    .mutateAsync({ id: sub.id, chargeId: removing.id })
                    .then(() => {
                      notify.success(t.removed);
                      setRemoving(null);
                    })
                    .catch(() => undefined)
                }
              >
                {t.remove}
              </button>
            </>
          }
        >
          <p className="text-sm text-slate-700">{t.removeText(removing.description)}</p>
        </Modal>
      )}
    </section>
  );
}

type FieldKey = 'description' | 'quantity' | 'unitPrice' | 'collect';
const FIELD_KEYS: readonly FieldKey[] = ['description', 'quantity', 'unitPrice', 'collect'];

export function OneOffDialog({ sub, onClose }: { sub: Subscription; onClose: () => void }) {
  const ids = { description: useId(), quantity: useId(), unitPrice: useId() };
  const [description, setDescription] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [unitPrice, setUnitPrice] = useState('');
  const [collect, setCollect] = useState<OneOffCollect>('now');
  const [errors, setErrors] = useState<Partial<Record<FieldKey, string>> & { general: string[] }>({
    general: [],
  });
  const add = useAddOneOffCharge();

  async function confirm() {
    setErrors({ general: [] });
    try {
      await add.mutateAsync({
        id: sub.id,
        description,
        quantity: Number(quantity),
        unitPrice,
        collect,
      });
      notify.success(t.added);
      onClose();
    } catch (error) {
      const split = splitFieldErrors(error, FIELD_KEYS);
      setErrors({ ...split.fields, general: split.general });
    }
  }

  const errorOf = (key: FieldKey) =>
    errors[key] ? <p className="mt-1 text-sm text-red-600">{errors[key]}</p> : null;

  return (
    <Modal
      title={t.dialogTitle}
      description={t.dialogIntro}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t.cancel}
          </button>
          <button
            type="button"
            className="btn-primary"
            disabled={add.isPending}
            onClick={() => void confirm()}
          >
            {t.confirm}
          </button>
        </>
      }
    >
      <div className="space-y-5">
        <div>
          <label htmlFor={ids.description} className="label">
            {t.description}
          </label>
          <input
            id={ids.description}
            className="input"
            value={description}
            maxLength={200}
            aria-invalid={errors.description ? true : undefined}
            onChange={(e) => setDescription(e.target.value)}
          />
          {errorOf('description')}
        </div>
        <div className="grid grid-cols-2 gap-4">
          <div>
            <label htmlFor={ids.quantity} className="label">
              {t.quantity}
            </label>
            <input
              id={ids.quantity}
              className="input"
              inputMode="numeric"
              value={quantity}
              aria-invalid={errors.quantity ? true : undefined}
              onChange={(e) => setQuantity(e.target.value)}
            />
            {errorOf('quantity')}
          </div>
          <div>
            <label htmlFor={ids.unitPrice} className="label">
              {t.unitPrice}
            </label>
            <input
              id={ids.unitPrice}
              className="input"
              inputMode="decimal"
              placeholder="0,00"
              value={unitPrice}
              aria-invalid={errors.unitPrice ? true : undefined}
              onChange={(e) => setUnitPrice(e.target.value)}
            />
            {errorOf('unitPrice')}
          </div>
        </div>
        <fieldset>
          <legend className="label">{t.collect}</legend>
          <div className="grid gap-2 sm:grid-cols-2" role="radiogroup" aria-label={t.collect}>
            {ONE_OFF_COLLECT.map((value) => (
              <label
                key={value}
                className={`flex min-h-12 cursor-pointer flex-col justify-center rounded-lg border px-3 py-2 text-sm ${
                  collect === value
                    ? 'border-blue-600 bg-blue-50 text-blue-900'
                    : 'border-slate-300 bg-white text-slate-700'
                }`}
              >
                <input
                  type="radio"
                  className="sr-only"
                  name="collect"
                  value={value}
                  checked={collect === value}
                  onChange={() => setCollect(value)}
                />
                <span className="font-medium">{oneOffCollectLabels[value]}</span>
                <span className={`text-xs ${collect === value ? 'text-blue-800' : 'text-slate-600'}`}>
                  {value === 'now' ? t.nowHint : t.nextPaymentHint}
                </span>
              </label>
            ))}
          </div>
          {errorOf('collect')}
        </fieldset>
        {errors.general.length > 0 && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {errors.general.map((g) => (
              <p key={g}>{g}</p>
            ))}
          </div>
        )}
      </div>
    </Modal>
  );
}
