/** The Italian texts of the collection screens (issue 29): 'Incassi in sospeso' and 'Solleciti'. */
import { formatCurrency } from '../../lib/formatters';

const payments = (n: number) => (n === 1 ? '1 pagamento' : `${n} pagamenti`);

export const methodNames: Record<'bankTransfer' | 'paypal' | 'stripe', string> = {
  bankTransfer: 'Bonifico',
  paypal: 'PayPal',
  stripe: 'Carta (Stripe)',
};

export const collectionText = {
  overdue: {
    title: 'Incassi in sospeso',
    intro: 'I pagamenti scaduti e non ancora incassati, per età del ritardo.',
    settingsLink: 'Solleciti',
    bucketsLabel: 'Pagamenti in ritardo per età',
    total: 'Totale in sospeso',
    payments,
    bucketFilter: (label: string) => `Mostra solo ${label}`,
    showAll: 'Mostra tutti',
    filteredBy: (label: string) => `Solo ${label}`,
    removeFilter: (label: string) => `Togli il filtro ${label}`,
    searchLabel: 'Cerca cliente o piano',
    searchPlaceholder: 'Cliente, e-mail o piano',
    search: 'Cerca',
    loadError: 'Non è stato possibile caricare gli incassi in sospeso.',
    remind: 'Sollecita ora',
    reminded: 'Sollecito inviato.',
    remindFailed: 'Il sollecito non è stato inviato.',
    markPaid: 'Segna come pagato',
    openSubscription: 'Apri la sottoscrizione',
    step: (reached: number | null, of: number) =>
      reached === null ? 'Nessuno' : of > 0 ? `${reached + 1} di ${of}` : `${reached + 1}`,
  },
  columns: {
    customer: 'Cliente',
    plan: 'Piano',
    amount: 'Importo',
    dueDate: 'Scadenza',
    daysOverdue: 'Giorni di ritardo',
    step: 'Sollecito',
    lastReminder: 'Ultimo sollecito',
    method: 'Metodo',
  },
  markPaid: {
    title: 'Segna come pagato',
    description: (customer: string, amount: number) =>
      `${customer} · ${formatCurrency(amount)}: registra il bonifico ricevuto; la fattura viene emessa una volta sola.`,
    amount: 'Importo ricevuto',
    date: 'Data del bonifico',
    note: 'Nota',
    noteHint: 'Facoltativa, al massimo 200 caratteri (es. CRO del bonifico).',
    cancel: 'Annulla',
    confirm: 'Segna come pagato',
    saving: 'Un momento…',
    done: 'Pagamento registrato.',
    failed: 'Il pagamento non è stato registrato.',
  },
  ladder: {
    title: 'Solleciti',
    intro:
      'Quando un pagamento non arriva, il cliente riceve un sollecito nei giorni indicati (0 = il giorno della scadenza), con il link per pagare o i dati del bonifico e il link alla sua area.',
    stepsLegend: 'Giorni dei solleciti',
    stepsHint: 'Giorni dopo la scadenza, in ordine crescente.',
    stepLabel: (i: number) => `Sollecito ${i + 1}: giorno`,
    addStep: 'Aggiungi sollecito',
    removeStep: (i: number) => `Rimuovi sollecito ${i + 1}`,
    graceDays: 'Fine della tolleranza (giorno)',
    graceHint: 'Fino a questo giorno il cliente mantiene l’accesso.',
    finalDay: 'Azione finale (giorno)',
    finalHint: 'In questo giorno l’abbonamento non pagato viene sospeso.',
    reset: 'Ripristina i valori predefiniti',
    save: 'Salva',
    saving: 'Salvataggio…',
    saved: 'Solleciti salvati.',
    saveFailed: 'I solleciti non sono stati salvati.',
    loadError: 'Non è stato possibile caricare i solleciti.',
    previewTitle: 'Anteprima',
    previewIntro: 'Cosa succede a un pagamento non incassato, dal giorno della scadenza.',
    timelineLabel: 'Sequenza dei solleciti',
    day: (n: number) => `Giorno ${n}`,
    dueDay: 'Scadenza del pagamento',
    reminder: (i: number) => `Sollecito ${i + 1} via e-mail`,
    graceEnd: (n: number) => `Accesso mantenuto fino al giorno ${n}`,
    finalAction: (n: number) => `Abbonamento sospeso il giorno ${n}`,
    finalActionHint: 'Il cliente viene avvisato; l’abbonamento presso PayPal o Stripe viene sospeso.',
    emailTitle: 'Esempio di e-mail di sollecito',
    emailTransfer: 'Bonifico bancario',
    emailCard: 'Carta',
  },
} as const;

/** A sample customer for the e-mail preview. */
const sample = {
  customer: 'Mario Rossi',
  plan: 'Piano Professional',
  amount: 122,
  iban: 'IT60 X054 2811 1010 0000 0123 456',
  beneficiary: 'Demo Srl',
  causale: 'RINNOVA-42-2026-03',
};

export interface EmailSample {
  subject: string;
  paragraphs: string[];
  action: string;
}

/**
 * The reminder e-mail of a ladder as the customer reads it, for a sample payment; `day` is the
 * reminder's day after the due date, `graceDays` and `finalDay` the ladder's.
 */
export function reminderEmail(
  kind: 'bankTransfer' | 'card',
  { day, graceDays, finalDay }: { day: number; graceDays: number; finalDay: number },
): EmailSample {
  const amount = formatCurrency(sample.amount);
  const opening =
    day === 0
      ? `oggi scade il pagamento di ${amount} per «${sample.plan}».`
      : `non abbiamo ancora ricevuto il pagamento di ${amount} per «${sample.plan}», scaduto ${day === 1 ? 'ieri' : `${day} giorni fa`}.`;
  const how =
    kind === 'bankTransfer'
      ? `Puoi pagare con un bonifico a ${sample.beneficiary}, IBAN ${sample.iban}, importo ${amount}, causale ${sample.causale}.`
      : 'Il pagamento con la carta non è andato a buon fine: puoi pagare con questo link sicuro o aggiornare la carta.';
  const grace =
    graceDays > day
      ? `Il tuo abbonamento resta attivo fino al giorno ${graceDays} dopo la scadenza (tra ${graceDays - day} giorni).`
      : 'Il periodo di tolleranza è terminato.';
  return {
    subject:
      day === 0
        ? `Pagamento in scadenza: ${sample.plan}`
        : `Promemoria: pagamento in sospeso per ${sample.plan}`,
    paragraphs: [
      `Gentile ${sample.customer},`,
      opening,
      how,
      `${grace} Senza pagamento, il giorno ${finalDay} l’abbonamento sarà sospeso.`,
      'Se hai già pagato, ignora questo messaggio. Nella tua area clienti trovi i pagamenti e le fatture.',
    ],
    action: kind === 'bankTransfer' ? 'Accedi alla tua area clienti' : 'Paga ora',
  };
}
