import { Fragment } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ChevronRightIcon } from '../../components/icons';
import { useSession } from '../../lib/session';
import { breadcrumbFor } from '../route-table';

/** 'Home' plus each path segment, labelled from the route table; the last one greyed (spec §2). */
export function Breadcrumb({ className = '' }: { className?: string }) {
  const { pathname } = useLocation();
  const role = useSession()?.user.role;
  const crumbs = breadcrumbFor(pathname, role);
  return (
    <nav aria-label="Percorso" className={`min-w-0 ${className}`}>
      <ol className="flex min-w-0 items-center gap-1 text-sm">
        {crumbs.map((crumb, i) => {
          const last = i === crumbs.length - 1;
          return (
            <Fragment key={`${i}-${crumb.label}`}>
              {i > 0 && (
                <li aria-hidden="true" className="shrink-0 text-slate-300">
                  <ChevronRightIcon className="h-4 w-4" />
                </li>
              )}
              <li className={`min-w-0 ${last ? 'truncate' : 'shrink-0'}`}>
                {last || !crumb.to ? (
                  <span aria-current={last ? 'page' : undefined} className="truncate text-slate-500">
                    {crumb.label}
                  </span>
                ) : (
                  <Link to={crumb.to} className="font-medium text-slate-600 hover:text-brand-blue">
                    {crumb.label}
                  </Link>
                )}
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
