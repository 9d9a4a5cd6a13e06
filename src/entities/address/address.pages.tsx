import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { addressResource } from './address.resource';

/** Route element of /address. */
export function ListScreen() {
  return <ListPage resource={addressResource} />;
}

/** Route element of /address/:id ('new' or any non-numeric id = create mode). */
export function FormScreen() {
  return <FormPage resource={addressResource} />;
}
