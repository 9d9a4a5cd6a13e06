import { useState } from 'react';
import { LinkIcon } from '../../components/icons';
import { useCreatePaymentLink } from './api/create-payment-link';
import { PaymentLinkModal } from './payment-link-modal';

/**
 * The plan change's done step, for the Admin (issue 30): the proration left to pay (bank transfer,
 * PayPal) gets a card payment link (`PaymentToken/create`; the server answers why not, e.g. no Stripe).
 */
export function ProrationLink({ paymentId }: { paymentId: number }) {
  const make = useCreatePaymentLink();
  const [link, setLink] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="btn-secondary mt-3 w-full justify-center"
        disabled={make.isPending}
        onClick={() =>
          void make
            .mutateAsync(paymentId)
            .then(setLink)
            .catch(() => undefined)
        }
      >
        <LinkIcon />
        Link di pagamento con carta del conguaglio
      </button>
      {link && <PaymentLinkModal link={link} onClose={() => setLink(null)} />}
    </>
  );
}
