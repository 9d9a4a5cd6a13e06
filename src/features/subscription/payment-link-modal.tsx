import { useId, useState } from 'react';
import { CheckIcon, CopyIcon } from '../../components/icons';
import { Modal } from '../../components/modal';
import { useQrCode } from '../../components/qr-code';
import { subscriptionText as t } from './subscription-text';

/** The payment link of a subscription (spec §4 'NotActive: generate a payment link'), with 'Copia' and a QR code. */
export function PaymentLinkModal({ link, onClose }: { link: string; onClose: () => void }) {
  const inputId = useId();
  const [copy, setCopy] = useState<'idle' | 'done' | 'failed'>('idle');
  const qr = useQrCode(link);

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(link);
      setCopy('done');
    } catch {
      setCopy('failed');
    }
  }

  return (
    <Modal
      title={t.paymentLinkTitle}
      description={t.paymentLinkIntro}
      onClose={onClose}
      footer={
        <button type="button" className="btn-secondary" onClick={onClose}>
          {t.close}
        </button>
      }
    >
      <label htmlFor={inputId} className="label">
        {t.paymentLinkTitle}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          className="input font-mono text-xs"
          value={link}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn-primary shrink-0" onClick={() => void copyLink()}>
          {copy === 'done' ? <CheckIcon /> : <CopyIcon />}
          {t.copy}
        </button>
      </div>
      <p className="mt-2 min-h-5 text-sm" role="status">
        {copy === 'done' && <span className="text-emerald-700">{t.copied}</span>}
        {copy === 'failed' && <span className="text-red-600">{t.copyFailed}</span>}
      </p>
      <div className="mt-2 flex flex-col items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4">
        {qr ? (
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr)}`}
            alt="QR code del link di pagamento"
            className="h-44 w-44 rounded bg-white"
          />
        ) : (
          <div className="h-44 w-44 animate-pulse rounded bg-slate-200" aria-hidden="true" />
        )}
        <p className="text-center text-xs text-slate-500">
          Il cliente può inquadrarlo con il telefono. Il link vale 1 ora e funziona una sola volta.
        </p>
      </div>
    </Modal>
  );
}
