/** Italian text of 'Cambia piano' (issue 30): the dialog, its preview and the scheduled change. */
export const planChangeText = {
  action: 'Cambia piano',
  title: 'Cambia piano',
  intro: (plan: string) => `Piano attuale: «${plan}». Scegli il nuovo piano e quando applicarlo.`,
  plan: 'Nuovo piano',
  planPlaceholder: 'Cerca un piano attivo…',
  planHint: (recurrence: string) =>
    `Solo piani attivi. Con un’altra ricorrenza (ora ${recurrence.toLowerCase()}) parte un nuovo periodo dal giorno del cambio.`,
  noPlans: 'Nessun piano attivo.',
  when: 'Quando',
  now: 'Subito',
  nowHint: 'Con conguaglio dei giorni restanti del periodo.',
  renewal: 'Al prossimo rinnovo',
  renewalHint: (day: string) => `Dal ${day}, senza conguaglio.`,
  date: 'In una data',
  dateHint: (from: string, to: string) => `Un giorno dal ${from} al ${to}.`,
  dateLabel: 'Data del cambio',
  previewTitle: 'Anteprima del cambio',
  previewLoading: 'Calcolo dell’anteprima…',
  choosePlan: 'Scegli il nuovo piano per vedere l’anteprima.',
  chooseDate: 'Scegli la data per vedere l’anteprima.',
  fromTo: (from: string, to: string) => `«${from}» → «${to}»`,
  effectiveNow: (day: string, unused: number, total: number) =>
    `Dal ${day}: ${unused} ${unused === 1 ? 'giorno' : 'giorni'} su ${total} del periodo in corso passano al nuovo piano.`,
  effectiveRenewal: (day: string) =>
    `Il nuovo piano parte al rinnovo del ${day}: nessun conguaglio, il periodo in corso resta com’è.`,
  /** A change between recurrences made before the renewal: a new period from the change day. */
  effectiveNewPeriod: (day: string, unused: number, total: number, next: string) =>
    `Dal ${day} parte un nuovo periodo del nuovo piano, fino al ${next} (nuova data di rinnovo): ${unused} ${unused === 1 ? 'giorno' : 'giorni'} su ${total} del periodo in corso sono stornati.`,
  effectiveLater: (day: string, unused: number, total: number) =>
    `Programmato per il ${day}: ${unused} ${unused === 1 ? 'giorno' : 'giorni'} su ${total} del periodo con il conguaglio qui sotto.`,
  linesTitle: 'Righe del conguaglio',
  lineCredit: (days: number) => `Nota di credito · ${days} ${days === 1 ? 'giorno' : 'giorni'}`,
  lineCharge: (days: number) => `Fattura · ${days} ${days === 1 ? 'giorno' : 'giorni'}`,
  creditDoc: 'Nota di credito (giorni non goduti)',
  chargeDoc: 'Fattura (giorni del nuovo piano)',
  taxable: 'Imponibile',
  cassa: 'Cassa previdenziale',
  vat: 'IVA',
  bollo: 'Imposta di bollo',
  withholding: 'Ritenuta d’acconto',
  docNet: 'Netto',
  netToPay: 'Netto da pagare',
  netToPayNow: 'ora',
  netToPayOnDay: (day: string) => `il ${day}`,
  residualCredit: 'Credito residuo',
  residualHint: 'Resta a favore del cliente: sarà scalato dal prossimo pagamento.',
  /** The subscription page: the credit left by plan changes (issue 30). */
  creditBalance: (amount: string) => `Credito a favore del cliente: ${amount}`,
  creditSetOff: 'Sarà scalato dal prossimo pagamento (e dai successivi, fino a esaurimento).',
  creditPayPal:
    'PayPal non permette di ridurre un singolo addebito: il credito non viene scalato in automatico. Rimborsalo al cliente da PayPal o concorda la compensazione.',
  nextPeriod: (day: string) => `Dal rinnovo del ${day}`,
  nextPeriodValue: (amount: string, recurrence: string) => `${amount} (${recurrence.toLowerCase()})`,
  confirm: 'Conferma cambio piano',
  cancel: 'Annulla',
  close: 'Chiudi',
  doneTitle: 'Piano cambiato',
  creditNote: (n: string) => `Nota di credito n. ${n} emessa per i giorni non goduti.`,
  proration: (amount: string) => `Pagamento di conguaglio di ${amount} da incassare.`,
  prorationPaid: 'Il conguaglio è coperto dal credito: nulla da pagare.',
  /** The customer's own words (customer area): the same facts, said to them. */
  customer: {
    proration: (amount: string) => `Conguaglio da pagare: ${amount}.`,
    prorationStripe: 'Lo addebitiamo sulla tua carta, non devi fare nulla.',
    prorationTransfer: (causale: string) =>
      `Pagalo da «Paga ora» nella tua area (con la carta, dove il fornitore la accetta) oppure con un bonifico all’IBAN del fornitore indicando la causale ${causale}.`,
  },
  prorationStripe: 'Stripe addebita il conguaglio sul metodo di pagamento del cliente.',
  prorationTransfer: (causale: string) =>
    `Il cliente lo paga con bonifico, causale ${causale}: registralo dai pagamenti della sottoscrizione o da «Incassi in sospeso».`,
  scheduledTitle: 'Cambio piano programmato',
  scheduled: (day: string, plan: string) => `Cambio piano programmato al ${day}: ${plan}`,
  cancelScheduled: 'Annulla cambio programmato',
  confirmCancelScheduled: {
    title: 'Annullare il cambio di piano programmato?',
    text: 'La sottoscrizione resterà sul piano attuale anche dopo la data prevista.',
    confirm: 'Sì, annulla il cambio',
    cancel: 'No, mantienilo',
  },
} as const;
