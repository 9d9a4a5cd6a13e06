import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { tenantResource } from './tenant.resource';

/** Route element of /tenant ('Lista Tenants'). */
export function ListScreen() {
  return <ListPage resource={tenantResource} />;
}

/** Route element of /tenant/new and /tenant/:id ('Dettaglio Tenant'). */
export function FormScreen() {
  return <FormPage resource={tenantResource} />;
}
