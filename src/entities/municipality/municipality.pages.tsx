import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { municipalityResource } from './municipality.resource';

/** Route element of /municipality. */
export function ListScreen() {
  return <ListPage resource={municipalityResource} />;
}

/** Route element of /municipality/:id ('new' or any non-numeric id = create mode). */
export function FormScreen() {
  return <FormPage resource={municipalityResource} />;
}
