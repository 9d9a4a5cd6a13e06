import { lazy } from 'react';
import { useCan } from '../lib/access';

const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page'));
const CustomerHomePage = lazy(() => import('../features/customer-area/customer-home-page'));

/** The index route: a customer's 'Area clienti' (issue 28), the staff's dashboard otherwise. */
export function HomePage() {
  const can = useCan();
  return can('customerArea', 'list') ? <CustomerHomePage /> : <DashboardPage />;
}
