import { useParams } from 'react-router-dom';
import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { parseEntityId } from '../../lib/use-form-controller';
import { planResource } from '../../entities/plan/plan.resource';
import { useCan } from '../../lib/access';
import { PlanFeatures } from './plan-features';
import { PlanIframe } from './plan-iframe';
import { PlanInvoicePreview } from './plan-invoice-preview';
import { PlanPaypalSync } from './plan-paypal-sync';

/** Route element of /plan ('Gestisci piani di abbonamento'). */
export function ListScreen() {
  return <ListPage resource={planResource} />;
}

/** Route element of /plan/:id: the plan form, then its features (after the first save) and its iframe code. */
export function FormScreen() {
  const id = parseEntityId(useParams().id);
  const can = useCan();
  const canEdit = can('plan', 'edit');
  return (
    <FormPage
      resource={planResource}
      live={(body) => <PlanInvoicePreview body={body} />}
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
