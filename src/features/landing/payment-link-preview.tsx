import { messages } from '../../../contract/messages';
import { CheckIcon, ClockIcon, LinkIcon } from '../../components/icons';

/**
 * A drawn example of what a customer opens: the plan, its price with VAT, the PayPal
 * subscription button. Illustrative only (hidden from assistive technology; the steps beside it
 * say the same in words).
 */
export function PaymentLinkPreview() {
  return (
    <div aria-hidden="true" className="rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4">
      <div className="flex min-w-0 items-center gap-2 rounded-lg bg-white px-3 py-2 text-xs text-slate-500 ring-1 ring-slate-200">
        <LinkIcon className="size-3.5 shrink-0 text-blue-600" />
        <span className="truncate font-mono">tuodominio.it/payment?token=8f3c…</span>
      </div>
      <div className="mt-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <p className="text-sm font-semibold text-slate-900">Consulenza mensile</p>
            <p className="mt-0.5 text-xs text-slate-500">Rinnovo ogni mese</p>
          </div>
          <p className="text-right text-lg font-semibold text-slate-900">
            122,00 €<span className="text-xs font-normal text-slate-500"> / mese</span>
          </p>
        </div>
        <p className="mt-1 text-xs text-slate-500">100,00 € + IVA 22%</p>
        <div className="mt-4 rounded-full bg-[#ffc439] py-2 text-center text-sm font-bold text-[#003087] italic">
          PayPal
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-xs">
        <span className="inline-flex items-center gap-1.5 text-slate-500">
          <ClockIcon className="size-3.5" />
          Link personale, scade dopo un’ora
        </span>
        <span className="badge gap-1 bg-emerald-100 text-emerald-800">
          <CheckIcon className="size-3" strokeWidth={2.5} />
          {messages.subscriptionStatus[1]}
        </span>
      </div>
    </div>
  );
}
