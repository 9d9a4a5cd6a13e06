import type { SweetAlertOptions } from 'sweetalert2';
import { messages } from '../../contract/messages';
import { uiText } from './ui-text';

/*
 * Every SweetAlert2 dialog of the SPA goes through here (spec §5 'Sei sicuro?', §2 'Tenant
 * Selezionata!', the bank-transfer confirmation): the library is loaded on first use (never in the
 * first load), styled with the app's own tokens (the `swal-rinnova` rules in index.css: font,
 * colours, radius, the btn-* classes) and Italian down to the accessible names of its buttons.
 */

/** Options every dialog shares. */
const base: SweetAlertOptions = {
  buttonsStyling: false,
  reverseButtons: true,
  closeButtonAriaLabel: uiText.dialogClose,
  showClass: { popup: 'swal2-show' },
  customClass: {
    container: 'swal-rinnova',
    popup: 'swal-rinnova-popup',
    title: 'swal-rinnova-title',
    htmlContainer: 'swal-rinnova-text',
    actions: 'swal-rinnova-actions',
    confirmButton: 'btn-danger',
    cancelButton: 'btn-secondary',
    closeButton: 'swal-rinnova-close',
    timerProgressBar: 'swal-rinnova-progress',
  },
};

async function fire(options: SweetAlertOptions) {
  const { default: Swal } = await import('sweetalert2');
  const customClass = { ...(base.customClass as object), ...(options.customClass as object) };
  return Swal.fire({ ...base, ...options, customClass } as SweetAlertOptions);
}

/** The dialog's body: what it acts on (bold, when given), then the text. Built as nodes, never as HTML. */
function body(text: string, subject?: string, subjectLabel: string = uiText.deleteSubject): HTMLElement {
  const wrap = document.createElement('div');
  if (subject) {
    const what = document.createElement('p');
    what.className = 'swal-rinnova-subject';
    what.append(`${subjectLabel} `);
    const strong = document.createElement('strong');
    strong.textContent = subject;
    what.append(strong);
    wrap.append(what);
  }
  const p = document.createElement('p');
  p.textContent = text;
  wrap.append(p);
  return wrap;
}

/**
 * The delete confirmation (spec §5): 'Sei sicuro?' / 'Non potrai annullare questa operazione!' /
 * 'Sì, elimina!' / 'Annulla', naming what will be deleted when known ('Regione «Lazio»').
 */
export async function confirmDelete(subject?: string): Promise<boolean> {
  return confirmAction({
    title: messages.deleteDialog.title,
    text: messages.deleteDialog.text,
    confirmText: messages.deleteDialog.confirm,
    cancelText: messages.deleteDialog.cancel,
    subject,
  });
}

export interface ConfirmOptions {
  title: string;
  text: string;
  confirmText: string;
  cancelText: string;
  /** 'danger' (red confirm, the default) or 'primary'. */
  tone?: 'danger' | 'primary';
  /** What the action acts on, shown in bold above the text. */
  subject?: string;
  /** The words before the subject (default 'Stai per eliminare'). */
  subjectLabel?: string;
}

/** A confirmation with the delete dialog's look (e.g. 'Imposta pagamento con bonifico', irreversible). */
export async function confirmAction(options: ConfirmOptions): Promise<boolean> {
  const result = await fire({
    title: options.title,
    html: body(options.text, options.subject, options.subjectLabel),
    icon: 'warning',
    iconColor: options.tone === 'primary' ? '#3b82f6' : '#dc2626',
    showCancelButton: true,
    showCloseButton: true,
    confirmButtonText: options.confirmText,
    cancelButtonText: options.cancelText,
    focusCancel: true,
    customClass: { confirmButton: options.tone === 'primary' ? 'btn-primary' : 'btn-danger' },
  });
  return result.isConfirmed;
}

/**
 * A confirmation that asks to type a word (a tenant's name) before an irreversible action: the
 * confirm button refuses anything else, with `mismatch` under the field.
 */
export async function confirmTyped(
  options: ConfirmOptions & { expected: string; inputLabel: string; mismatch: string },
): Promise<boolean> {
  const result = await fire({
    title: options.title,
    html: body(options.text, options.subject, options.subjectLabel),
    icon: 'warning',
    iconColor: '#dc2626',
    input: 'text',
    inputLabel: options.inputLabel,
    // Named for assistive technology too (SweetAlert2 writes the label with innerText).
    inputAttributes: { autocomplete: 'off', spellcheck: 'false', 'aria-label': options.inputLabel },
    inputValidator: (value: string) => (value.trim() === options.expected ? null : options.mismatch),
    showCancelButton: true,
    showCloseButton: true,
    confirmButtonText: options.confirmText,
    cancelButtonText: options.cancelText,
    customClass: { confirmButton: 'btn-danger', input: 'input', inputLabel: 'label' },
  });
  return result.isConfirmed;
}

/** A short success alert that closes by itself (e.g. 'Tenant Selezionata!'). */
export async function showSuccess(title: string, text?: string, timerMs = 1800): Promise<void> {
  await fire({
    icon: 'success',
    iconColor: '#10b981',
    title,
    text,
    timer: timerMs,
    timerProgressBar: true,
    showCloseButton: true,
    confirmButtonText: 'OK',
    customClass: { confirmButton: 'btn-primary' },
  });
}
