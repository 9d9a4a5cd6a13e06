/** The dashboard's Italian text (spec §2 'Dashboard home'): chart titles as the spec writes them. */
export const dashboardText = {
  greetingFallbackName: 'utente',
  greeting: (name: string) => `Benvenuto, ${name}.`,
  question: 'Cosa vuoi fare oggi con Rinnova?',
  kpi: {
    mrr: 'Entrate ricorrenti mensili (MRR)',
    mrrHint: 'IVA esclusa, quota mensile degli abbonamenti attivi',
    active: 'Abbonamenti attivi',
    activeHint: 'Attivi e attivi senza rinnovo',
    churn: 'Tasso di churn',
    churnHint: 'Questo mese',
    churnTooltip:
      'Il churn rate è la quota di abbonamenti persi nel mese: abbonamenti usciti da uno stato attivo questo mese (cancellati, sospesi o scaduti senza rinnovo) ÷ (abbonamenti attivi ora + quelli usciti) × 100.',
    newCustomers: 'Nuovi clienti questo mese',
    newCustomersHint: 'Clienti alla prima attivazione',
  },
  charts: {
    revenue: 'Fatturato ultimi 12 mesi',
    revenueHint: 'Pagamenti incassati, IVA esclusa',
    plans: 'Abbonamenti per piano',
    plansHint: 'Abbonamenti attivi ora',
    count: 'Conteggio abbonamenti (Ultimi 12 mesi)',
    countCurrent: 'attivi ora',
    momLabel: 'rispetto al mese scorso',
    newVsChurn: 'Nuovi abbonamenti vs. Churn (Ultimi 12 mesi)',
    newSeries: 'Nuovi abbonamenti',
    churnSeries: 'Churn',
    activeSeries: 'Abbonamenti attivi',
    revenueSeries: 'Fatturato',
  },
  empty: {
    title: 'La tua dashboard è pronta per i primi dati',
    text: 'Gli indicatori e i grafici si calcolano dalle sottoscrizioni e dai pagamenti di questo tenant. Ancora nessuna sottoscrizione: inizia da qui.',
    planStep: 'Crea un piano di abbonamento',
    planDone: 'Piano creato',
    subscriptionStep: 'Crea la prima sottoscrizione',
  },
  userIntro:
    'Da qui puoi consultare le tue sottoscrizioni e i tuoi indirizzi: apri il menu principale per iniziare.',
  noRate: '—',
} as const;
