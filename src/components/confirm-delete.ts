import { messages } from '../../contract/messages';

/**
 * The delete confirmation (spec §5): 'Sei sicuro?' / 'Non potrai annullare questa operazione!' /
 * 'Sì, elimina!' / 'Annulla'. The only place sweetalert2 is called; it is loaded on first use so
 * it stays out of the main bundle. The dialog traps focus and returns it on close.
 */
export async function confirmDelete(): Promise<boolean> {
  return confirmAction({
    title: messages.deleteDialog.title,
    text: messages.deleteDialog.text,
    confirmText: messages.deleteDialog.confirm,
    cancelText: messages.deleteDialog.cancel,
  });
}

export interface ConfirmOptions {
  title: string;
  text: string;
  confirmText: string;
  cancelText: string;
  /** 'danger' (red confirm, the default) or 'primary'. */
  tone?: 'danger' | 'primary';
}

/** A confirmation with the delete dialog's look (e.g. 'Imposta pagamento con bonifico', irreversible). */
export async function confirmAction(options: ConfirmOptions): Promise<boolean> {
  const { default: Swal } = await import('sweetalert2');
  const result = await Swal.fire({
    title: options.title,
    text: options.text,
    icon: 'warning',
    showCancelButton: true,
    confirmButtonText: options.confirmText,
    cancelButtonText: options.cancelText,
    focusCancel: true,
    reverseButtons: true,
    buttonsStyling: false,
    customClass: {
      popup: 'rounded-xl',
      actions: 'gap-3',
      confirmButton: options.tone === 'primary' ? 'btn-primary' : 'btn-danger',
      cancelButton: 'btn-secondary',
    },
  });
  return result.isConfirmed;
}
