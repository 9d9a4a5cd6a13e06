import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { provinceResource } from './province.resource';

/** Route element of /province. */
export function ListScreen() {
  return <ListPage resource={provinceResource} />;
}

/** Route element of /province/:id ('new' or any non-numeric id = create mode). */
export function FormScreen() {
  return <FormPage resource={provinceResource} />;
}
