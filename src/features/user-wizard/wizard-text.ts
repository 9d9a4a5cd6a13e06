/** Italian text of the wizard that the spec does not name (its own strings come from contract/messages). */
export const wizardText = {
  intro: 'Crea un nuovo utente in quattro passi. Riceverà un’email per impostare la password.',
  progress: 'Avanzamento',
  stepOf: (n: number, total: number) => `Passo ${n} di ${total}`,
  steps: ['Email', 'Dati personali', 'Indirizzo di fatturazione', 'Riepilogo'] as const,
  /** The step indicator's visible labels (the full names above are read to screen readers). */
  stepLabels: ['Email', 'Dati personali', 'Fatturazione', 'Riepilogo'] as const,
  stepHints: [
    'L’indirizzo email con cui l’utente accederà. Verifichiamo che non sia già registrato.',
    'Nome, contatti e dati di fatturazione elettronica.',
    'L’indirizzo a cui intestare le fatture.',
    'Controlla i dati e conferma per creare l’utente.',
  ] as const,
  next: 'Avanti',
  back: 'Indietro',
  confirm: 'Conferma e crea utente',
  checking: 'Verifica dell’email in corso…',
  creating: 'Creazione in corso…',
  completed: 'completato',
  current: 'passo attuale',
  edit: 'Modifica',
  summaryGroups: { account: 'Account', personal: 'Dati personali', billing: 'Indirizzo di fatturazione' },
} as const;
