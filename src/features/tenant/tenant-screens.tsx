import { useParams } from 'react-router-dom';
import { FormPage } from '../../components/form-page';
import { parseEntityId } from '../../lib/use-form-controller';
import { ListPage } from '../../components/list-page';
import { tenantResource } from '../../entities/tenant/tenant.resource';
import { TenantDatabaseCard } from './tenant-database-card';

/** Route element of /tenant ('Lista Tenants'). */
export function ListScreen() {
  return <ListPage resource={tenantResource} />;
}

/** Route element of /tenant/new and /tenant/:id ('Dettaglio Tenant'); a SuperAdmin also sees where its database lives. */
export function FormScreen() {
  const id = parseEntityId(useParams().id);
  return (
    <FormPage
      resource={tenantResource}
      after={id !== null && <TenantDatabaseCard tenantId={id} resource={tenantResource} />}
    />
  );
}
