import { messages } from '../../../contract/messages';

/** 'Tenant Selezionata!' (spec §2). sweetalert2 is imported on demand: never in the first load. */
export async function showTenantSelectedAlert(tenantName?: string): Promise<void> {
  const { default: Swal } = await import('sweetalert2');
  await Swal.fire({
    icon: 'success',
    title: messages.tenant.selected,
    text: tenantName,
    timer: 1800,
    timerProgressBar: true,
    confirmButtonText: 'OK',
    confirmButtonColor: '#3b82f6',
  });
}
