/**
 * Every Italian string the product spec names, written once, character for character
 * (typographic apostrophes included). Both the SPA and the server import from here.
 */
export const messages = {
  common: {
    emptyTable: 'Ancora niente qui ¯\\_(ツ)_/¯',
    notAvailable: 'N/D',
    yes: 'Sì',
    no: 'No',
    filtersTitle: 'Filtri di Ricerca',
    search: 'Cerca',
    reset: 'Resetta',
    actions: 'Azioni',
    show: 'Mostra:',
    create: 'Crea',
    save: 'Salva',
    back: 'Indietro',
    filterBy: (field: string) => `Filtra per ${field}`,
    listTitle: (entity: string) => `Lista di ${entity}`,
    createNew: (entity: string) => `Crea Nuovo ${entity}`,
    edit: (entity: string) => `Modifica ${entity}`,
  },
  deleteDialog: {
    title: 'Sei sicuro?',
    text: 'Non potrai annullare questa operazione!',
    confirm: 'Sì, elimina!',
    cancel: 'Annulla',
  },
  http: {
    sessionExpired: 'La sessione è scaduta. Effettua nuovamente il login.',
    unauthorized: 'Accesso non autorizzato.',
    loadError: 'Errore nel recupero dei dati. Sono presenti maggiori dettagli nella console.',
    noData: 'Nessun dato ricevuto.',
    saveError: 'Errore durante il salvataggio. Sono presenti maggiori dettagli nella console.',
    created: 'Nuovo elemento creato!',
    updated: 'Elemento aggiornato!',
  },
  user: {
    created: 'Nuovo utente creato con successo!',
    updated: 'Utente aggiornato con successo!',
    deleteError: (error: string) => `C'è stato un problema con l'eliminazione dell'entità: ${error}`,
  },
  wizard: {
    title: 'Creazione Utente Wizard',
    emailRequired: 'L’email è obbligatoria.',
    emailInvalid: 'Formato email non valido.',
    emailTaken: 'L’email esiste già nel database.',
    emailCheckFailed: 'Errore durante la verifica dell’email. Riprova.',
    nameRequired: 'Il nome è obbligatorio.',
    streetRequired: 'La via è obbligatoria.',
    municipalityRequired: 'Il municipio è obbligatorio.',
    created: 'Utente creato con successo!',
    createFailed: 'Errore durante la creazione dell’utente.',
  },
  password: {
    mismatch: 'Le password non corrispondono.',
    tooShort: 'La password deve contenere almeno 6 caratteri.',
  },
  inlineTable: {
    saved: 'Elemento salvato con successo!',
    saveError: 'Errore nel salvataggio',
    deleted: 'Elemento eliminato!',
    deleteError: 'Errore durante la cancellazione',
  },
  subscription: {
    pickRequired: 'Seleziona un utente e un piano.',
    syncDone: (n: number) => `Aggiornate ${n} subscription(i) da PayPal ✅`,
    syncError: 'Errore durante la sincronizzazione PayPal ❌',
    syncStripeDone: (n: number) => `Aggiornate ${n} subscription(i) da Stripe ✅`,
    syncStripeError: 'Errore durante la sincronizzazione Stripe ❌',
    paymentLinkError: 'Si è verificato un errore durante la creazione del link di pagamento.',
    noUsers: 'Nessun utente trovato.',
    noPlans: 'Nessun piano trovato.',
  },
  plan: {
    iframeError: 'Impossibile recuperare il codice iframe.',
  },
  payment: {
    tokenMissing: 'Token mancante nella richiesta.',
    tokenInvalid: 'Token non valido.',
    paypalNotConfigured: 'Configurazione PayPal non trovata per questo tenant.',
    updateFailed: 'Aggiornamento del pagamento fallito.',
    genericError: 'Si è verificato un errore durante il pagamento.',
    success: "Pagamento completato! Grazie per l'acquisto.",
    /** Not the spec's: PayPal has the approval but has not taken the first charge yet. */
    paypalPending:
      'PayPal sta ancora confermando il primo addebito: la sottoscrizione si attiverà appena PayPal lo conferma.',
  },
  login: {
    defaultError: 'Errore durante il login',
    resetRequestError: "Errore nell'invio della richiesta di reset.",
    resetRequestSuccess: 'Email di reset inviata con successo!',
    sessionExpired: 'La sessione è scaduta. Effettua nuovamente il login.',
  },
  resetPage: {
    invalidToken: 'Token non valido o scaduto.',
    resetError: 'Errore nel reset della password.',
  },
  tenant: {
    placeholder: 'Seleziona un tenant',
    current: 'Tenant attuale:',
    none: 'nessuna tenant selezionata',
    selected: 'Tenant Selezionata!',
    loading: 'Caricamento tenant...',
    loadError: 'Errore nel recupero delle tenant. Redirect al login in corso.',
    bypassOnlyOnPayment: 'Il bypass del tenant è consentito solo sulla pagina di pagamento.',
  },
  layout: {
    sidebarTitle: 'Menu principale',
    logout: 'Logout',
    home: 'Home',
    pageNotFound: 'Pagina non trovata',
  },
  contact: {
    required: 'Questo campo non può essere lasciato vuoto.',
    invalid: 'Le informazioni fornite non sono valide. Controlla il formato del campo e riprova.',
    countryPrefix: 'Scegli un prefisso paese',
    success: 'Il tuo messaggio è stato inviato.',
    error: 'Il tuo messaggio non è stato inviato. Controlla i campi.',
  },
  subscriptionStatus: {
    1: 'Sottoscrizione attiva',
    2: 'Sottoscrizione non attiva',
    3: 'Attiva, ma senza rinnovo automatico',
    4: 'In attesa di bonifico bancario',
    5: 'Sottoscrizione Cancellata',
  },
} as const;

/**
 * Messages the server sends in the envelope (`message`, `errors`). The spec leaves them open;
 * the API contract asks that they be Italian. `Token scaduto` must contain 'scaduto' so the SPA
 * shows the session-expired toast.
 */
export const serverMessages = {
  ok: 'Operazione completata.',
  validation: 'I dati inviati non sono validi.',
  apiKeyMissing: 'Chiave API mancante o non valida.',
  tokenMissing: 'Autenticazione richiesta.',
  tokenInvalid: 'Token non valido.',
  tokenExpired: 'Token scaduto',
  forbidden: 'Operazione non consentita per il tuo ruolo.',
  tenantRequired: 'Seleziona un tenant (intestazione X-Tenant-Id mancante).',
  tenantForbidden: 'Non hai accesso a questo tenant.',
  notFound: 'Elemento non trovato.',
  routeNotFound: 'Risorsa non trovata.',
  conflict: 'Operazione in conflitto con lo stato attuale.',
  inUse: 'Impossibile eliminare: l’elemento è ancora in uso.',
  payloadTooLarge: 'Il corpo della richiesta è troppo grande.',
  rateLimited: 'Troppe richieste. Riprova tra qualche istante.',
  internal: 'Si è verificato un errore interno. Riprova più tardi.',
  invalidCredentials: 'Email o password non corretti.',
  passwordResetRequired: 'È necessario impostare una nuova password prima di accedere.',
  passwordNotSet: 'Imposta la password dal link ricevuto via email prima di accedere.',
  resetRequested: 'Se l’indirizzo è registrato, riceverai un’email con il link per reimpostare la password.',
  resetTokenValid: 'Token valido.',
  resetTokenInvalid: 'Token non valido o scaduto.',
  passwordUpdated: 'Password aggiornata con successo.',
  emailTaken: 'Esiste già un utente con questa email.',
  invalidId: 'Identificativo non valido.',
  pageSizeTooLarge: 'La dimensione della pagina deve essere compresa tra 1 e 100.',
  unknownReference: 'Riferimento a un elemento inesistente.',
  superAdminOnly: 'Solo un SuperAdmin può creare, modificare o eliminare un SuperAdmin.',
  /** The other account's role is never named: it belongs to other tenants. */
  emailOtherRole: 'Questa email appartiene già a un account con un altro ruolo.',
  sharedAccount:
    'Questo account appartiene anche ad altri tenant: email e ruolo non si possono modificare da qui.',
  selfChange: 'Non puoi cambiare il tuo ruolo, disattivare o eliminare il tuo account.',
  invalidCharacters: 'Il testo contiene caratteri non ammessi.',
  badUrl: 'Indirizzo della richiesta non valido.',
  /** A request target that is not a plain path (absolute-form, `//`, `/./`, encoded separators). */
  badRequestTarget:
    'Indirizzo della richiesta non valido: usa un percorso semplice, senza host, `//`, `.` o `..`.',
  urlTooLong: 'Indirizzo della richiesta troppo lungo.',
  headersTooLarge: 'Intestazioni della richiesta troppo grandi.',
  loggedOut: 'Disconnessione effettuata.',
  /** `afterId` of a list: the row it names must be one the list can reach. */
  cursorNotFound: 'Cursore non valido: nessun elemento con questo identificativo nell’elenco.',
  cursorNotSupported: 'Questo ordinamento non si può scorrere a cursore: usa page.',
} as const;

/** Messages of the billing calls (api-contract 'Billing calls'); the spec leaves them open. */
export const billingMessages = {
  /** 'Cambia piano' (issue 30). */
  planChanged: (plan: string) => `Piano cambiato: ora «${plan}».`,
  planChangeScheduled: (plan: string, day: string) => `Cambio di piano programmato: «${plan}» dal ${day}.`,
  /** A PayPal subscription's change waits for the buyer's approval at PayPal (issue 30). */
  planChangeApprovalAdmin:
    'Su PayPal il nuovo piano vale solo dopo che il cliente lo approva: gli è stato inviato il link per e-mail e lo trova nella sua area clienti.',
  planChangeApprovalCustomer:
    'Su PayPal il nuovo piano vale solo dopo che lo approvi: usa «Approva il nuovo piano su PayPal» (il link è anche nella tua e-mail).',
  planNotAtProvider: (plan: string, provider: string) =>
    `Il piano «${plan}» non è collegato a ${provider}: sincronizzalo con ${provider} prima di cambiare piano.`,
  transitionRefused: (from: string, action: string) =>
    `Operazione non consentita: una sottoscrizione nello stato «${from}» non può passare a «${action}».`,
  planInactive: 'Il piano scelto non è attivo.',
  userNotMember: 'Il cliente scelto non appartiene a questo tenant.',
  startDateFixed: 'La data di inizio non si può modificare dopo la creazione.',
  customerFixed: 'Il cliente non si può modificare dopo la creazione.',
  onlyNotActiveEditable: 'Si possono modificare piano e importi solo di una sottoscrizione non attiva.',
  ibanMissing:
    'Per il pagamento con bonifico serve l’IBAN del venditore: aggiungilo in Lista Tenants → Dati di fatturazione.',
  notCovered: (approved: string, due: string) =>
    `I bonifici approvati (${approved}) non coprono l’importo dovuto (${due}).`,
  overAmountDue: (total: string, due: string) =>
    `Con questo bonifico il totale (${total}) supererebbe l’importo dovuto (${due}).`,
  approvalInFuture: 'La data di approvazione non può essere nel futuro.',
  transfersOnlyWhilePending:
    'I bonifici si registrano solo mentre la sottoscrizione è in attesa di bonifico.',
  cancelNeedsProvider:
    'Si può cancellare solo una sottoscrizione attiva pagata con un fornitore di pagamento (ID sottoscrizione del fornitore mancante).',
  setToBankTransfer: 'Pagamento impostato su bonifico bancario: istruzioni inviate al cliente.',
  activated: 'Sottoscrizione attivata senza rinnovo automatico.',
  canceled: 'Sottoscrizione cancellata.',
  created: 'Sottoscrizione creata.',
  updated: 'Sottoscrizione aggiornata.',
} as const;

/** The background-jobs page and its calls (/hangfire). */
export const jobMessages = {
  title: 'Status aggiornamento subscription',
  engineOff: 'Il motore dei job non è attivo su questo server (JOBS=off).',
  notFound: 'Job non trovato.',
  notFailed: 'Si può rimettere in coda solo un job fallito.',
  retried: 'Job rimesso in coda.',
  triggered: 'Job accodato: parte entro pochi secondi.',
  notQueued: 'Il job non è stato accodato.',
} as const;

/** Exports and the monthly PDF report (issue 14). */
export const reportMessages = {
  monthInvalid: 'Mese non valido: usa il formato AAAA-MM.',
  monthFuture: 'Il report di un mese futuro non è ancora disponibile.',
  emailInvalid: 'Indirizzo email non valido.',
  queued: (email: string) => `Report in preparazione: arriverà a ${email} entro pochi minuti.`,
  exportFailed: 'Esportazione non riuscita. Riprova tra qualche istante.',
  reportFailed: 'Report PDF non scaricato. Riprova tra qualche istante.',
  sendFailed: 'Invio del report non riuscito. Riprova tra qualche istante.',
  mailSubject: (tenant: string, period: string) => `Rinnova: report di ${period} - ${tenant}`,
} as const;

/** Messages of invoices (issue 12): why one is not issued names the field to complete. */
export const invoiceMessages = {
  missing: (what: string) => `Fattura non emessa: manca ${what}.`,
  sellerLegalName: 'la ragione sociale del venditore (Lista Tenants → Dati di fatturazione)',
  sellerVat: 'la Partita IVA del venditore (Lista Tenants → Dati di fatturazione)',
  sellerStreet: 'l’indirizzo del venditore (Lista Tenants → Dati di fatturazione)',
  sellerZip: 'il CAP del venditore (Lista Tenants → Dati di fatturazione)',
  sellerMunicipality: 'il comune del venditore (Lista Tenants → Dati di fatturazione)',
  buyerName: 'il nome del cliente (Lista Utenti)',
  buyerIdentity: 'la Partita IVA o il codice fiscale del cliente (Lista Utenti → Codice fiscale)',
  buyerForeignVat: 'il numero IVA del cliente estero (Lista Utenti → Partita IVA, con il prefisso del paese)',
  buyerStreet: 'l’indirizzo di fatturazione del cliente (Lista Utenti → Indirizzo)',
  buyerZip: 'il CAP del cliente (Lista Utenti → Indirizzo)',
  buyerMunicipality: 'il comune del cliente (Lista Utenti → Indirizzo)',
  buyerCity: 'la città del cliente estero (Lista Utenti → Città estera)',
  planNatura: 'la Natura IVA del piano con IVA 0 % (Gestisci piani → Natura IVA)',
  amountMismatch: (paid: string, agreed: string) =>
    `Fattura non emessa: l’importo del pagamento (${paid}) non corrisponde al prezzo concordato con IVA (${agreed}).`,
  fileRefused: (errors: string) => `Fattura non emessa: il file FatturaPA non supera i controlli. ${errors}`,
  notPaid: 'Il pagamento non risulta ancora pagato: nessuna fattura da emettere.',
  alreadyCredited: 'Questa fattura ha già una nota di credito.',
  creditNoteOfCreditNote: 'Una nota di credito non si può stornare con un’altra nota di credito.',
  reasonRequired: 'Il motivo della nota di credito è obbligatorio.',
  monthInvalid: 'Mese non valido: usa il formato AAAA-MM.',
  dateInvalid: 'Data non valida: usa il formato AAAA-MM-GG.',
  issued: (number: string) => `Fattura ${number} emessa.`,
  creditNoteIssued: (number: string) => `Nota di credito ${number} emessa.`,
  stillBlocked: 'La fattura non è stata emessa: completa i dati indicati e riprova.',
  stillBlockedMany: 'Nessuna fattura emessa: completa i dati indicati e riprova.',
  nothingWaiting: 'Nessun pagamento in attesa di fattura per questo cliente.',
  /** 'Riprova' on a customer's payments: the invoices issued, and how many still wait. */
  retried: (numbers: readonly string[], waiting: number) =>
    [
      numbers.length === 1 ? `Fattura ${numbers[0]} emessa.` : `Fatture ${numbers.join(', ')} emesse.`,
      waiting === 0
        ? ''
        : waiting === 1
          ? '1 pagamento ancora in attesa.'
          : `${waiting} pagamenti ancora in attesa.`,
    ]
      .filter(Boolean)
      .join(' '),
  /** The Italian names of the fields an invoice needs, as the 'Mancano: …' line lists them. */
  fieldLabels: {
    name: 'nome',
    fiscalCode: 'codice fiscale',
    vatCode: 'partita IVA',
    foreignVat: 'numero IVA estero',
    street: 'indirizzo',
    zip: 'CAP',
    municipality: 'comune',
    city: 'città',
    legalName: 'ragione sociale',
  },
  /** 'Mancano: codice fiscale, indirizzo, CAP, comune' ('Manca: CAP' for one). */
  missingFields: (labels: readonly string[]) =>
    `${labels.length === 1 ? 'Manca' : 'Mancano'}: ${labels.join(', ')}`,
  yearInvalid: 'Anno non valido: usa il formato AAAA (dal 2019).',
  naturaRequired: 'Con IVA 0 % serve la Natura (da N1 a N7).',
  naturaOnlyAtZero: 'La Natura si indica solo con IVA 0 %.',
  naturaInvalid: 'Natura non valida: scegli un codice da N1 a N7.',
  countryInvalid: 'Paese non valido: 2 lettere (es. IT, DE, FR).',
  paOfficeCodeInvalid:
    'Il codice univoco ufficio della PA deve contenere esattamente 6 caratteri alfanumerici.',
} as const;

/** Integrations (issue 15): tenant API keys, entitlement API, outbound webhooks. */
export const integrationMessages = {
  apiKeysTitle: 'Chiavi API',
  webhooksTitle: 'Webhook',
  keyInvalid: 'Chiave API non valida, revocata o scaduta.',
  keyScopeMissing: (scope: string) => `Questa chiave API non ha l’ambito «${scope}».`,
  keyOnlyV1: 'Le chiavi API dei tenant accedono solo alle API /api/v1.',
  rateLimited: 'Troppe richieste per questa chiave API: riprova tra poco.',
  keyCreated: 'Chiave API creata: copiala ora, non verrà più mostrata.',
  keyRevoked: 'Chiave API revocata.',
  keyRotated:
    'Chiave API ruotata: copia la nuova chiave, la vecchia resta valida per il periodo di transizione.',
  keyAlreadyRevoked: 'La chiave API è già revocata.',
  keyNameRequired: 'Il nome della chiave è obbligatorio.',
  scopesRequired: 'Scegli almeno un ambito.',
  expiryInPast: 'La scadenza deve essere nel futuro.',
  customerRequired: 'Indica customerEmail oppure customerId.',
  featureRequired: 'Indica la funzionalità (feature).',
  featureKeyInvalid: 'Chiave non valida: lettere minuscole, cifre, _ . - (al massimo 60 caratteri).',
  featureKeyTaken: 'Esiste già una funzionalità con questa chiave.',
  settingsSaved: 'Limiti salvati.',
  perKeyLimitRange: 'Inserisci un numero intero da 1 a 100.000.',
  perTenantLimitRange: 'Inserisci un numero intero da 1 a 1.000.000.',
  perKeyOverTenant: 'Il limite per chiave non può superare quello del tenant.',
  endpointCreated: 'Endpoint creato: copia ora il segreto di firma, non verrà più mostrato.',
  endpointSaved: 'Endpoint salvato.',
  endpointDeleted: 'Endpoint eliminato.',
  urlInvalid: 'Indirizzo non valido: usa un URL http:// o https:// completo.',
  urlHttpsRequired: 'In produzione l’indirizzo deve usare https://.',
  urlPrivate: 'Indirizzo non ammesso: punta a una rete privata o locale.',
  eventsRequired: 'Scegli almeno un evento.',
  deliveryResent: 'Consegna reinviata.',
  deliveryResendFailed: 'Reinvio non riuscito: vedi il tentativo registrato.',
  endpointDisabledSubject: 'Webhook disattivato: l’endpoint non risponde',
  endpointDisabled: (url: string) =>
    `L’endpoint ${url} non ha accettato le consegne per 24 ore ed è stato disattivato. Controllalo e riattivalo dalla pagina Webhook.`,
} as const;

/** Sending invoices to the SdI through the tenant's PEC mailbox (issue 12). */
export const pecMessages = {
  notConfigured:
    'Invio PEC non configurato: scarica l’XML e fallo inviare allo SdI dal tuo intermediario, oppure configura la casella PEC in Lista Tenants → Invio PEC.',
  fieldHost: 'Manca il server SMTP della PEC.',
  fieldUser: 'Manca l’utente SMTP della PEC.',
  fieldPassword: 'Manca la password SMTP della PEC.',
  fieldSender: 'Manca l’indirizzo PEC del mittente (Dati di fatturazione → PEC).',
  fieldPasswordUnreadable:
    'La password SMTP della PEC non è più leggibile (chiave del server cambiata): inseriscila di nuovo.',
  notFound: 'Fattura non trovata.',
  alreadySent: 'Questa fattura è già stata inviata allo SdI.',
  /** DM 55/2013: the SdI refuses an unsigned FPA12 (00102); Rinnova does not sign. */
  unsignedPa:
    'Le fatture alla pubblica amministrazione (FPA12) vanno firmate digitalmente prima dell’invio: scarica l’XML, firmalo (CAdES o XAdES) e trasmettilo con il tuo intermediario.',
  inProgress: 'Un invio di questa fattura è già in corso.',
  queued: (number: string) =>
    `Invio della fattura ${number} allo SdI avviato: l’esito compare nella fattura.`,
  jobsOff: 'Invio non disponibile: il motore dei job è spento (JOBS=off).',
  errorAuth: 'Invio non riuscito: la casella PEC ha rifiutato l’accesso, controlla utente e password SMTP.',
  errorConnection: (server: string) =>
    `Invio non riuscito: il server SMTP della PEC (${server}) non risponde, controlla server e porta.`,
  errorTls: (server: string) =>
    `Invio non riuscito: connessione sicura con il server SMTP della PEC (${server}) non riuscita (la PEC richiede TLS o STARTTLS con un certificato valido).`,
  errorPrivate: (server: string) =>
    `Invio non riuscito: il server SMTP della PEC (${server}) punta a una rete privata o locale.`,
  errorRefused: (response: string) =>
    `Invio non riuscito: il server PEC ha rifiutato il messaggio (${response}).`,
  errorOther: (detail: string) => `Invio non riuscito: ${detail}`,
  sendStatus: { sending: 'In invio', sent: 'Inviata', failed: 'Non riuscito' },
} as const;

/** The SdI's receipts loaded on an invoice (issue 12). */
export const receiptMessages = {
  unreadable:
    'File non riconosciuto: carica la ricevuta di consegna, la notifica di scarto o di mancata consegna dello SdI (XML).',
  xmlRequired: 'Il file XML della ricevuta è obbligatorio.',
  unknownFile: (fileName: string) => `Nessuna fattura di questo tenant con il file ${fileName}.`,
  delivered: (number: string) => `Fattura ${number} consegnata al cliente dallo SdI.`,
  rejected: (number: string) =>
    `Fattura ${number} scartata dallo SdI: correggi e inviala di nuovo entro 5 giorni.`,
  notDelivered: (number: string) =>
    `Mancata consegna della fattura ${number}: è comunque emessa ed è a disposizione del cliente nella sua area riservata. Lo stato non cambia.`,
  already: (number: string) => `La ricevuta della fattura ${number} era già registrata.`,
  alreadyDelivered: (number: string) => `La fattura ${number} risulta già consegnata.`,
} as const;

/** The database of each tenant (issue 25; contract 'Tenancy'). */
export const tenancyMessages = {
  unavailable:
    'I dati di questo tenant non sono raggiungibili in questo momento. Riprova tra qualche minuto.',
  busy: 'Il servizio è molto carico in questo momento: riprova tra qualche secondo.',
  readOnly:
    'Il tenant è in manutenzione: puoi consultare i dati, le modifiche saranno di nuovo possibili tra pochi minuti.',
  // Operations on one tenant's database (backup, restore, export, delete, move).
  noOwnDatabase: 'Il tenant non ha ancora un database proprio.',
  createFailed:
    'Non è stato possibile creare il database del nuovo tenant: il tenant non è stato creato. Riprova tra qualche minuto.',
  createdInControl:
    'Tenant creato, ma per ora nel database condiviso: non è stato possibile creare il suo database. Un amministratore di sistema può spostarlo con npm run tenants -- split.',
  refreshFailed:
    'Modifiche salvate, ma il database del tenant non le ha ancora ricevute: le fatture usano i dati precedenti finché non salvi di nuovo.',
  tenantNotFound: (id: number) => `Tenant ${id} inesistente.`,
  notABackup: 'Il file non è un backup di un tenant di Rinnova.',
  backupOfAnotherTenant: (backupOf: number, tenantId: number) =>
    `Il backup è del tenant ${backupOf}: non si può ripristinare sul tenant ${tenantId}.`,
  backupFromNewerRelease: (backup: number, release: number) =>
    `Il backup viene da una versione più recente di Rinnova (${backup} migrazioni, questa ne ha ${release}): aggiorna prima Rinnova.`,
  backupOfOtherKind: (kind: string) =>
    `Il backup è di un database ${kind === 'embedded' ? 'incorporato (PGlite)' : 'PostgreSQL'}: si ripristina solo su un'installazione dello stesso tipo.`,
  backupFailed: (detail: string) => `Backup non riuscito: ${detail}`,
  restoreFailed: (detail: string) => `Ripristino non riuscito, il tenant è rimasto com'era: ${detail}`,
  deleteConfirmName: 'Per confermare scrivi il nome del tenant, esattamente come appare.',
  deletedWithExport: (name: string) =>
    `Tenant «${name}» eliminato con tutti i suoi dati. L’esportazione completa è conservata sul server.`,
  exportRequired: "Prima di eliminare il tenant serve un'esportazione completa dei suoi dati.",
  exportOfAnotherTenant: "L'esportazione indicata non è di questo tenant.",
  deleteRefused: (detail: string) => `Eliminazione rifiutata, nulla è cambiato: ${detail}`,
  moveEmbedded: "Il database incorporato ha un solo server: non c'è dove spostare il tenant.",
  unknownServer: (server: string) => `Il server ${server} non è configurato (TENANT_DATABASE_SERVERS).`,
  sameServer: (server: string) => `Il database del tenant è già sul server ${server}.`,
  moveFailed: (detail: string) =>
    `Spostamento non riuscito e annullato: il tenant è rimasto sul server di prima. ${detail}`,
  notReady: (state: string) =>
    `Il database del tenant è nello stato ${state}: riprova quando l'operazione in corso sarà finita.`,
  backupTaken: 'Backup del tenant pronto.',
  restored: 'Tenant ripristinato dal backup.',
  moved: (server: string) => `Tenant spostato sul server ${server}.`,
  exported: 'Esportazione del tenant pronta.',
  deleted: 'Tenant eliminato: database, voce della directory e iscrizioni rimossi.',
  uploadRequired: 'Invia il file di backup come corpo della richiesta (application/octet-stream).',
} as const;

/** The customers' own area (issue 28): its screens' texts and the server's answers. */
export const customerAreaMessages = {
  home: 'Area clienti',
  billingTitle: 'Dati di fatturazione',
  /** The tenant selector in a customer's words: the seller whose area they open. */
  supplier: 'Fornitore',
  chooseSupplier: 'Scegli il fornitore',
  chooseSupplierText: 'Sei cliente di più fornitori: scegli di quale aprire l’area clienti.',
  supplierPlaceholder: 'Seleziona un fornitore',
  /** A subscription's status on the customer's card, in their words (the badge of issue 28). */
  status: {
    1: 'Attivo',
    2: 'Da pagare',
    3: 'Attivo, senza rinnovo automatico',
    4: 'In attesa del bonifico',
    5: 'Cessato',
  } as Record<number, string>,
  myDataTitle: 'I miei dati',
  /** GET api/user/me/data with a format other than json or pdf. */
  myDataFormatInvalid: 'Formato non valido: scegli json o pdf.',
  /** The SPA's toast when 'I miei dati' could not be downloaded (the server's reason follows). */
  myDataFailed: 'Download dei tuoi dati non riuscito. Riprova tra qualche istante.',
  /** PUT api/user/me/billing: what the save did to the invoices waiting for these data. */
  billingSaved(issued: number, waiting: number): string {
    const done =
      issued === 0
        ? 'Dati di fatturazione salvati.'
        : issued === 1
          ? 'Dati di fatturazione salvati: 1 fattura emessa.'
          : `Dati di fatturazione salvati: ${issued} fatture emesse.`;
    if (waiting === 0) return done;
    return `${done} ${waiting === 1 ? '1 pagamento è' : `${waiting} pagamenti sono`} ancora in attesa di fattura.`;
  },
  /** 'Paga ora' (POST api/user/me/subscriptions/{id}/pay). */
  nothingDue: 'Non c’è nulla da pagare ora per questo abbonamento.',
  payLinkReady: 'Link di pagamento pronto: si apre la pagina di pagamento.',
  transferInstructions: 'Ecco i dati per il bonifico.',
  /** 'Metodo di pagamento' (POST api/user/me/subscriptions/{id}/paymentMethod). */
  noProviderPage:
    'Questo abbonamento non è pagato con carta o PayPal: non c’è una pagina del fornitore da aprire.',
  switchOnlyActive:
    'Si può passare al bonifico solo da un abbonamento attivo: se c’è un pagamento in sospeso usa «Paga ora».',
  switchedToBankTransfer: (from: string) =>
    `Fatto: il rinnovo automatico è disattivato. Dal ${from} pagherai con bonifico: ti invieremo IBAN, importo e causale.`,
  alreadyBankTransfer: (from: string) => `Dal ${from} il pagamento è già previsto con bonifico.`,
} as const;

/** Coupons (issue 30): the 'Coupon' screen's rules and the codes a subscription is given. */
export const couponMessages = {
  codeRequired: 'Il codice è obbligatorio.',
  codeInvalid: 'Il codice deve avere da 3 a 40 caratteri: lettere, cifre, - e _.',
  codeTaken: 'Codice già in uso',
  percentInvalid: 'La percentuale deve essere maggiore di 0 e al massimo 100, con al massimo 2 decimali.',
  amountInvalid: 'L’importo deve essere maggiore di 0, con al massimo 2 decimali.',
  discountRequired: 'Indica una percentuale o un importo di sconto.',
  discountBoth: 'Indica la percentuale oppure l’importo, non entrambi.',
  durationRequired: 'Scegli la durata: una volta, per un numero di periodi o sempre.',
  periodsRequired: 'Indica per quanti periodi vale lo sconto (da 1 a 36).',
  periodsInvalid: 'Il numero di periodi deve essere un intero da 1 a 36.',
  expiresInvalid: 'Data di scadenza non valida (AAAA-MM-GG).',
  maxRedemptionsInvalid: 'Il numero massimo di utilizzi deve essere un intero maggiore o uguale a 1.',
  maxBelowRedeemed: (times: number) =>
    `Il coupon è già stato usato ${times === 1 ? '1 volta' : `${times} volte`}: il massimo non può essere inferiore.`,
  planUnknown: 'Piano non trovato.',
  /** DELETE of a coupon already used: it stays, as the subscriptions that used it refer to it. */
  deleteRedeemed:
    'Il coupon è già stato usato e non si può eliminare: per disattivarlo imposta una data di scadenza passata.',
  /** `couponCode` of subscription Create and quote. */
  invalid: 'Coupon non valido',
  expired: 'Coupon scaduto',
  exhausted: 'Coupon esaurito',
  notForPlan: 'Coupon non valido per questo piano',
  /** A second code on a subscription that already has a coupon (payment page, 'Applica coupon'). */
  alreadyApplied: 'A questa sottoscrizione è già applicato un altro coupon',
  /** 'Applica coupon' on a subscription that is over. */
  notApplicable: 'Il coupon si applica solo a una sottoscrizione non ancora terminata.',
  applied: (code: string) => `Coupon ${code} applicato.`,
  /** 'Applica coupon' on a subscription PayPal charges: revised at PayPal, not applied until approved. */
  pendingAtPayPal: (code: string) =>
    `Coupon ${code}: su PayPal la sottoscrizione è stata aggiornata al prezzo scontato, ma lo sconto vale solo dopo che il cliente lo approva su PayPal. Gli abbiamo inviato il link per approvarlo; lo trova anche nella sua area clienti.`,
  /** The discount's line on the PDF and on the quote. */
  discountLabel: 'Sconto',
} as const;
