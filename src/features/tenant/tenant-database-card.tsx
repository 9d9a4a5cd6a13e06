import { useId } from 'react';
import { formatBytes } from '../../../contract/format-bytes';
import type { Tenant } from '../../../contract/schemas/tenant';
import { useCan } from '../../lib/access';
import { entityHooks } from '../../lib/entity-hooks';
import type { ResourceDef } from '../../lib/resource';
import { TenantDatabaseActions, isNamedServer, serverLabel } from './tenant-database-actions';
import { tenantDatabaseText } from './tenant-database-text';

export { tenantDatabaseText };

/**
 * Where a tenant's database lives and its size (contract 'Tenancy': GetById answers it to a
 * SuperAdmin only), below the tenant's form. Reads the form's own cached detail: no second call.
 */
export function TenantDatabaseCard({
  tenantId,
  resource,
}: {
  tenantId: number;
  resource: ResourceDef<Tenant>;
}) {
  const headingId = useId();
  const can = useCan();
  const superAdmin = can('tenant', 'database');
  const detail = entityHooks(resource).useDetail(superAdmin ? tenantId : null);
  const database = (detail.data as Tenant | undefined)?.database;
  if (!superAdmin || !database) return null;
  // Names the machine uses (a server's, a database's) in monospace; words in the text face.
  const rows: [string, string, boolean][] = [
    [tenantDatabaseText.server, serverLabel(database.server), isNamedServer(database.server)],
    [tenantDatabaseText.name, database.name, true],
    database.sizeBytes === null
      ? [tenantDatabaseText.size, tenantDatabaseText.shared, false]
      : [tenantDatabaseText.size, formatBytes(database.sizeBytes), false],
  ];
  return (
    <section aria-labelledby={headingId} className="card mt-6 p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {tenantDatabaseText.title}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{tenantDatabaseText.intro}</p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        {rows.map(([label, value, machine]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
            <dd className={`mt-1 break-words text-sm text-slate-900 ${machine ? 'font-mono' : ''}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {database.sizeBytes === null ? (
        // Still in the control database: nothing of its own to back up, restore or move yet.
        <p className="mt-6 border-t border-slate-200 pt-5 text-sm text-slate-600">
          {tenantDatabaseText.notSplit}{' '}
          <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs whitespace-nowrap text-slate-800">
            {tenantDatabaseText.splitCommand}
          </code>
        </p>
      ) : (
        <TenantDatabaseActions
          tenantId={tenantId}
          tenantName={(detail.data as Tenant | undefined)?.name ?? ''}
          entity={resource.name}
          server={database.server}
        />
      )}
    </section>
  );
}
