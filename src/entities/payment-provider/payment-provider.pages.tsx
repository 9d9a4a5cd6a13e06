import { FormPage } from '../../components/form-page';
import { ListPage } from '../../components/list-page';
import { paymentProviderResource } from './payment-provider.resource';

/** Route element of /paymentprovider ('Configura PayPal'). */
export function ListScreen() {
  return <ListPage resource={paymentProviderResource} />;
}

/** Route element of /paymentprovider/:id ('new' or any non-numeric id = create mode). */
export function FormScreen() {
  return <FormPage resource={paymentProviderResource} />;
}
