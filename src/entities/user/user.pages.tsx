import { Navigate, useParams } from 'react-router-dom';
import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { parseEntityId } from '../../lib/use-form-controller';
import { userResource } from './user.resource';

/** Route element of /user ('Lista Utenti'); 'Crea Nuovo Utente' opens the wizard. */
export function ListScreen() {
  return <ListPage resource={userResource} />;
}

/** Route element of /user/:id: two tabs (user data, billing address). A non-numeric id goes to the wizard (spec §2). */
export function FormScreen() {
  const { id } = useParams();
  if (parseEntityId(id) === null) return <Navigate to="/user-wizard" replace />;
  return <FormPage resource={userResource} />;
}
