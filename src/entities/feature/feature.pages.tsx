import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { featureResource } from './feature.resource';

/** Route element of /feature. */
export function ListScreen() {
  return <ListPage resource={featureResource} />;
}

/** Route element of /feature/:id ('new' or any non-numeric id = create mode). */
export function FormScreen() {
  return <FormPage resource={featureResource} />;
}
