import { useParams } from 'react-router-dom';
import { SubscriptionCreatePage } from '../../features/subscription/subscription-create-page';
import { SubscriptionDetailPage } from '../../features/subscription/subscription-detail-page';
import { SubscriptionListPage } from '../../features/subscription/subscription-list-page';
import { parseEntityId } from '../../lib/use-form-controller';

/** Route element of /subscription ('Gestisci Sottoscrizioni'). */
export function ListScreen() {
  return <SubscriptionListPage />;
}

/** Route element of /subscription/new ('Crea Sottoscrizione') and /subscription/:id (detail). */
export function FormScreen() {
  const id = parseEntityId(useParams().id);
  return id === null ? <SubscriptionCreatePage /> : <SubscriptionDetailPage key={id} id={id} />;
}
