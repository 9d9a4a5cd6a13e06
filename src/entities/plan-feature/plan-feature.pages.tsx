import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { planFeatureResource } from './plan-feature.resource';

/** Route element of /planfeature. */
export function ListScreen() {
  return <ListPage resource={planFeatureResource} />;
}

/** Route element of /planfeature/:id ('new' or any non-numeric id = create mode). */
export function FormScreen() {
  return <FormPage resource={planFeatureResource} />;
}
