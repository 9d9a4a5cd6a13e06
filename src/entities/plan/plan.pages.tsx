import { useParams } from 'react-router-dom';
import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { PlanFeatures } from '../../features/plan/plan-features';
import { PlanIframe } from '../../features/plan/plan-iframe';
import { PlanPaypalSync } from '../../features/plan/plan-paypal-sync';
import { parseEntityId } from '../../lib/use-form-controller';
import { useRoleAllowed } from '../../lib/use-list-controller';
import { planResource } from './plan.resource';

/** Route element of /plan ('Gestisci piani di abbonamento'). */
export function ListScreen() {
  return <ListPage resource={planResource} />;
}

/** Route element of /plan/:id: the plan form, then its features (after the first save) and its iframe code. */
export function FormScreen() {
  const id = parseEntityId(useParams().id);
  const canEdit = useRoleAllowed(planResource.roles?.edit);
  return (
    <FormPage
      resource={planResource}
      after={
        <>
          <PlanFeatures planId={id} canEdit={canEdit} />
          {id !== null && canEdit && <PlanPaypalSync planId={id} />}
          {id !== null && canEdit && <PlanPaypalSync planId={id} provider="stripe" />}
          {id !== null && <PlanIframe planId={id} />}
        </>
      }
    />
  );
}
