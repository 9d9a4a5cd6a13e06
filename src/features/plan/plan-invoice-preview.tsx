import { useId, useState } from 'react';
import { isNatura } from '../../../contract/invoice/fatturapa';
import {
  computeDocument,
  type CustomerProfile,
  type FiscalDocument,
  type SellerProfile,
} from '../../../contract/invoice/fiscal-document';
import { toQuote } from '../../../contract/invoice/quote';
import { toCents, toPercentHundredths } from '../../../contract/money';
import type { Tenant } from '../../../contract/schemas/tenant';
import { InvoicePreview } from '../../components/invoice-preview';
import { tenantResource } from '../../entities/tenant/tenant.resource';
import { entityHooks } from '../../lib/entity-hooks';
import type { FormValues } from '../../lib/resource';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { planText } from './plan-text';

/** The kinds of customer a plan is previewed for: what changes the document is who buys. */
const customers: readonly { key: string; label: string; profile: CustomerProfile }[] = [
  {
    key: 'itCompany',
    label: 'Impresa italiana',
    profile: { countryCode: 'IT', isCompany: true, withholdingAgent: true, publicAdministration: false },
  },
  {
    key: 'itPerson',
    label: 'Privato italiano',
    profile: { countryCode: 'IT', isCompany: false, withholdingAgent: false, publicAdministration: false },
  },
  {
    key: 'pa',
    label: 'Pubblica amministrazione',
    profile: { countryCode: 'IT', isCompany: true, withholdingAgent: true, publicAdministration: true },
  },
  {
    key: 'euCompany',
    label: 'Impresa UE (Germania)',
    profile: { countryCode: 'DE', isCompany: true, withholdingAgent: false, publicAdministration: false },
  },
  {
    key: 'euPerson',
    label: 'Privato UE (Francia)',
    profile: { countryCode: 'FR', isCompany: false, withholdingAgent: false, publicAdministration: false },
  },
  {
    key: 'nonEu',
    label: 'Impresa extra UE (Svizzera)',
    profile: { countryCode: 'CH', isCompany: true, withholdingAgent: false, publicAdministration: false },
  },
];

/** The tenant's fiscal profile as the contract's computation reads it. */
function sellerOf(t: Tenant): SellerProfile {
  return {
    taxRegime: t.taxRegime,
    pensionFund: t.pensionFund
      ? { type: t.pensionFund.type, rate: toPercentHundredths(t.pensionFund.rate) }
      : null,
    withholdingTax: t.withholdingTax,
    stampDutyToCustomer: t.stampDutyToCustomer,
    oss: t.ossRegistered,
  };
}

/** The document one period of the plan being typed would produce, or null while it is incomplete. */
function documentOf(
  seller: SellerProfile,
  customer: CustomerProfile,
  body: FormValues,
): FiscalDocument | null {
  const cost = body.recurringCostBeforeVAT;
  const vat = body.vatPercentage;
  if (typeof cost !== 'number' || !(cost >= 0) || typeof vat !== 'number' || !(vat >= 0)) return null;
  const name = typeof body.name === 'string' && body.name.trim() ? body.name.trim() : planText.previewPlan;
  try {
    return computeDocument({
      seller,
      customer,
      charges: [{ description: name, quantity: 1, unitPriceCents: toCents(cost) }],
      plan: { vat: toPercentHundredths(vat), natura: isNatura(body.natura) ? body.natura : null },
    });
  } catch {
    // A figure the form will refuse anyway (too many decimals, out of range): no preview.
    return null;
  }
}

/**
 * 'Anteprima fattura' on the plan screen (issue 27): the plan as typed, for the kind of customer
 * chosen, through the contract's one computation with the tenant's fiscal profile — the figures
 * `POST api/subscription/quote` would answer for such a customer.
 */
export function PlanInvoicePreview({ body }: { body: FormValues }) {
  const tenantId = useSelectedTenantId();
  const tenant = entityHooks(tenantResource).useDetail(tenantId).data as Tenant | null | undefined;
  const [kind, setKind] = useState(customers[0]!.key);
  const selectId = useId();
  if (!tenant) return null;
  const customer = customers.find((c) => c.key === kind) ?? customers[0]!;
  const document = documentOf(sellerOf(tenant), customer.profile, body);
  if (!document) return null;
  return (
    <InvoicePreview
      quote={toQuote(document)}
      loading={false}
      controls={
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-xs whitespace-nowrap text-slate-500">
            {planText.previewFor}
          </label>
          <select
            id={selectId}
            className="input h-8 w-auto py-0 text-sm"
            value={kind}
            onChange={(e) => setKind(e.target.value)}
          >
            {customers.map((c) => (
              <option key={c.key} value={c.key}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
      }
    />
  );
}
