/**
 * Italian UI text of the subscription screens that the spec does not name. The spec's own strings
 * (inline-table messages, pickers' empty texts, 'Seleziona un utente e un piano.', the payment-link
 * error) come from contract/messages.ts.
 */
export const subscriptionText = {
  listTitle: 'Gestisci Sottoscrizioni',
  createTitle: 'Crea Sottoscrizione',
  editTitle: 'Modifica Sottoscrizione',
  createIntro: 'Scegli il cliente e il piano, poi concorda il prezzo: il totale si aggiorna mentre scrivi.',
  adminOnly: 'Solo un amministratore può creare sottoscrizioni.',
  adminOnlyHint: 'Il tuo account può consultare le proprie sottoscrizioni, ma non crearne di nuove.',
  backToList: 'Torna alle sottoscrizioni',

  actions: {
    paymentLink: 'Genera link di pagamento',
    setBankTransfer: 'Imposta pagamento con bonifico',
    manageBankTransfers: 'Gestisci bonifici',
    confirmActivation: 'Conferma attivazione',
    cancel: 'Cancella sottoscrizione',
  },
  confirmBankTransfer: {
    title: 'Impostare il pagamento con bonifico?',
    text: 'L’operazione è irreversibile: la sottoscrizione resterà in attesa del bonifico bancario finché non ne confermerai l’attivazione.',
    confirm: 'Sì, imposta il bonifico',
  },
  confirmCancel: {
    title: 'Cancellare la sottoscrizione?',
    text: 'Il cliente perderà l’accesso ai contenuti. Non potrai annullare questa operazione!',
    confirm: 'Sì, cancella',
  },
  bankTransferSet: 'Pagamento impostato su bonifico bancario.',
  activationConfirmed: 'Attivazione confermata: sottoscrizione attiva senza rinnovo automatico.',
  canceled: 'Sottoscrizione cancellata.',
  actionFailed: 'Operazione non riuscita. Riprova.',

  paymentLinkTitle: 'Link di pagamento',
  paymentLinkIntro: 'Invia questo link al cliente: potrà pagare la sottoscrizione. Il link scade dopo 1 ora.',
  copy: 'Copia',
  copied: 'Link copiato negli appunti.',
  copyFailed: 'Copia non riuscita: seleziona il link e copialo a mano.',
  close: 'Chiudi',

  fields: {
    user: 'Cliente',
    plan: 'Piano',
    cost: 'Costo (IVA esclusa, €)',
    vat: 'IVA (%)',
    startDate: 'Data di inizio',
    nextBillingDate: 'Prossima fatturazione',
    status: 'Stato',
  },
  costHint: 'Puoi usare la virgola per i decimali, es. 49,50.',
  userPlaceholder: 'Cerca un cliente…',
  planPlaceholder: 'Cerca un piano attivo…',
  summaryTitle: 'Riepilogo',
  net: 'Imponibile',
  vatAmount: (vat: string) => `IVA (${vat} %)`,
  total: 'Totale',
  totalInvalid: 'Inserisci costo e IVA validi per vedere il totale.',
  recurrence: (name: string) => `Ricorrenza: ${name}`,
  lockedNote:
    'Piano e prezzo si possono modificare solo finché la sottoscrizione non è attiva (stato «Sottoscrizione non attiva»).',
  nextStepTitle: 'Prossimo passo',
  nextStepText: 'Invia al cliente il link di pagamento, oppure imposta il pagamento con bonifico bancario.',
  actionsTitle: 'Azioni disponibili',
  noActions: 'Nessuna azione disponibile in questo stato.',

  paymentsTitle: 'Pagamenti',
  paymentsEmpty: 'Nessun pagamento registrato.',
  payment: {
    amount: 'Importo',
    causale: 'Causale',
    period: 'Periodo',
    paidAt: 'Pagato il',
    method: 'Metodo',
    notPaid: 'Non ancora pagato',
  },
  methods: { bankTransfer: 'Bonifico bancario', paypal: 'PayPal', stripe: 'Stripe' } as Record<
    string,
    string
  >,

  historyTitle: 'Cronologia',
  historyEmpty: 'Nessun evento registrato.',
  historyList: 'Cronologia della sottoscrizione',
  by: 'da',
  actors: {
    user: 'Utente',
    paymentToken: 'Cliente (link di pagamento)',
    provider: 'Fornitore di pagamento',
    system: 'Sistema',
    apiKey: 'Integrazione (chiave API)',
  } as Record<string, string>,
  reason: 'Motivo:',

  transfers: {
    title: 'Gestisci bonifici',
    instructionsTitle: 'Istruzioni per il bonifico',
    beneficiary: 'Beneficiario',
    iban: 'IBAN',
    amountDue: 'Importo dovuto',
    causale: 'Causale',
    tableLabel: 'Bonifici registrati',
    amount: 'Importo (€)',
    approvalDate: 'Data di approvazione',
    notApproved: 'Da approvare',
    empty: 'Nessun bonifico registrato. Aggiungi il primo quando arriva sul conto.',
    add: 'Aggiungi bonifico',
    save: 'Salva',
    cancel: 'Annulla',
    edit: 'Modifica bonifico',
    remove: 'Elimina bonifico',
    approvedOf: 'Approvato',
    registered: 'Registrato in totale',
    remaining: 'Da approvare per coprire l’importo',
    covered: 'Importo coperto: puoi confermare l’attivazione.',
    approvalHint: 'Lascia vuoto finché il bonifico non è confermato sul conto.',
    noPayment: 'Questa sottoscrizione non ha un pagamento a cui associare bonifici.',
    /** The export's file name when the server sends none (it sends bonifici-<tenant>-<day>). */
    exportFileName: 'bonifici',
  },
} as const;
