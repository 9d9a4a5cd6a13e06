import { useParams } from 'react-router-dom';
import { SubscriptionCreatePage } from './subscription-create-page';
import { SubscriptionDetailPage } from './subscription-detail-page';
import { SubscriptionListPage } from './subscription-list-page';
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
