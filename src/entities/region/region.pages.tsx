import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { regionResource } from './region.resource';

/** Route element of /region. */
export function ListScreen() {
  return <ListPage resource={regionResource} />;
}

/** Route element of /region/:id ('new' or any non-numeric id = create mode). */
export function FormScreen() {
  return <FormPage resource={regionResource} />;
}
