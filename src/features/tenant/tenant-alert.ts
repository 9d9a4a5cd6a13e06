import { messages } from '../../../contract/messages';
import { showSuccess } from '../../components/confirm-delete';

/** 'Tenant Selezionata!' (spec §2), in the app's dialog style; sweetalert2 loads on demand. */
export async function showTenantSelectedAlert(tenantName?: string): Promise<void> {
  await showSuccess(messages.tenant.selected, tenantName);
}
