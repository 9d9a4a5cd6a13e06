import { messages } from '../../contract/messages';

/**
 * The delete confirmation (spec §5): 'Sei sicuro?' / 'Non potrai annullare questa operazione!' /
 * 'Sì, elimina!' / 'Annulla'. The only place sweetalert2 is called; it is loaded on first use so
 * it stays out of the main bundle. The dialog traps focus and returns it on close.
 */
export async function confirmDelete(): Promise<boolean> {
  const { default: Swal } = await import('sweetalert2');
  const result = await Swal.fire({
    title: messages.deleteDialog.title,
    text: messages.deleteDialog.text,
    icon: 'warning',
    showCancelButton: true,
    confirmButtonText: messages.deleteDialog.confirm,
    cancelButtonText: messages.deleteDialog.cancel,
    focusCancel: true,
    reverseButtons: true,
    buttonsStyling: false,
    customClass: {
      popup: 'rounded-xl',
      actions: 'gap-3',
      confirmButton: 'btn-danger',
      cancelButton: 'btn-secondary',
    },
  });
  return result.isConfirmed;
}
