/**
 * Italian UI text the product spec does not name (aria-labels, hints). The spec's own strings live
 * in contract/messages.ts and are imported from there, never retyped.
 */
export const uiText = {
  edit: 'Modifica',
  delete: 'Elimina',
  actionsFor: (id: number | string) => `Azioni per l'elemento ${id}`,
  selectAll: 'Seleziona tutte le righe',
  selectRow: (id: number | string) => `Seleziona riga ${id}`,
  selectedCount: (n: number) => (n === 1 ? '1 elemento selezionato' : `${n} elementi selezionati`),
  bulkDelete: 'Elimina selezionati',
  clearSelection: 'Deseleziona',
  bulkDeleteText: (n: number) =>
    `${n === 1 ? 'Verrà eliminato 1 elemento' : `Verranno eliminati ${n} elementi`}. Non potrai annullare questa operazione!`,
  pagination: 'Paginazione',
  previousPage: 'Pagina precedente',
  nextPage: 'Pagina successiva',
  pageLink: (page: number, current: boolean) =>
    current ? `Pagina ${page}, pagina corrente` : `Vai alla pagina ${page}`,
  jumpForward: 'Salta avanti',
  jumpBackward: 'Salta indietro',
  range: (from: number, to: number, total: number, capped = false) =>
    // 'oltre 1.000': thousands always grouped (it-IT leaves 4-digit numbers ungrouped).
    `${from}–${to} di ${capped ? `oltre ${String(total).replace(/\B(?=(\d{3})+(?!\d))/g, '.')}` : total}`,
  searchLabel: 'Ricerca libera',
  searchPlaceholder: 'Cerca in tutti i campi…',
  loading: 'Caricamento…',
  loadingFilters: 'Caricamento filtri',
  loadingRows: 'Caricamento righe',
  loadingForm: 'Caricamento dati',
  showFilters: 'Mostra filtri',
  hideFilters: 'Nascondi filtri',
  selectPlaceholder: 'Seleziona…',
  selectNoOptions: 'Nessun risultato',
  selectLoading: 'Caricamento…',
  selectClear: 'Cancella selezione',
  serverErrors: 'Il server ha rifiutato i dati:',
  required: 'obbligatorio',
  close: 'Chiudi',
  dialogClose: 'Chiudi questa finestra',
  deleteSubject: 'Stai per eliminare',
  exportSelected: 'Esporta selezionati (CSV)',
  exportMenu: 'Esporta',
  exporting: 'Esportazione…',
  exportCsv: 'CSV',
  exportCsvHint: 'Separato da ; per Excel in italiano',
  exportXlsx: 'Excel (XLSX)',
  exportXlsxHint: 'Date e importi già formattati',
  noMatchesHint: 'Nessun risultato con questi filtri: prova a cambiare i criteri o azzera i filtri.',
  sortBy: 'Ordina per',
  sortNatural: 'Ordine predefinito',
  sortAscending: (name: string) => `${name} (crescente)`,
  sortDescending: (name: string) => `${name} (decrescente)`,
  loadFailed: 'Impossibile caricare l’elemento.',
  writeOnlyHint:
    'Per sicurezza il valore salvato non viene mostrato: lascia vuoto per mantenerlo, oppure scrivine uno nuovo.',
} as const;
