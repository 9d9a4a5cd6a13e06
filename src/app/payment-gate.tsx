import { lazy, Suspense, useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageSpinner } from '../components/spinner';
import { useSession } from '../lib/session';
import { setSelectedTenantId } from '../lib/tenant-store';
import { useTenantList } from '../features/tenant/use-tenant-list';

const PaymentPage = lazy(() => import('../features/payment/payment-page'));

/**
 * /payment and /payment/process (spec §2, §4), composed here from the payment and tenant features. With a session and bypassTenant=true, the first
 * tenant is selected and stored once the list has loaded, then the user lands on /payment with
 * history replaced. The payment page itself needs no session.
 */
export function PaymentGate() {
  const session = useSession();
  const [params] = useSearchParams();
  if (session && params.get('bypassTenant') === 'true') return <TenantBypass />;
  return (
    <Suspense fallback={<PageSpinner fullScreen />}>
      <PaymentPage />
    </Suspense>
  );
}

function TenantBypass() {
  const { data: tenants } = useTenantList();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    if (!tenants) return;
    const first = tenants[0];
    if (first) setSelectedTenantId(first.id);
    const rest = new URLSearchParams(params);
    rest.delete('bypassTenant');
    const query = rest.toString();
    navigate(`/payment${query ? `?${query}` : ''}`, { replace: true });
  }, [tenants, params, navigate]);
  return <PageSpinner fullScreen />;
}
