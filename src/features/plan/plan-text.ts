/** Italian text of the plan screen that the spec does not name (its own strings come from contract/messages). */
export const planText = {
  /** 'Anteprima fattura' (issue 27): the customer kind it is computed for. */
  previewFor: 'Per un cliente',
  previewPlan: 'Piano',
  featuresTitle: 'Funzionalità del piano',
  featuresIntro:
    'Le funzionalità elencate qui compaiono nel widget del piano e abilitano le funzioni premium via API.',
  featuresAfterSave:
    'Le funzionalità si possono aggiungere solo dopo il primo salvataggio del piano: dopo «Crea» il piano resta aperto e potrai aggiungerle qui.',
  featuresEmpty: 'Nessuna funzionalità associata a questo piano.',
  featureName: 'Nome funzionalità',
  featureDescription: 'Descrizione',
  addFeature: 'Aggiungi funzionalità',
  removeFeature: (name: string) => `Rimuovi la funzionalità ${name}`,
  featuresTable: 'Funzionalità associate al piano',
  iframeTitle: 'Codice iframe del piano',
  iframeIntro: 'Incolla questo codice nel tuo sito per mostrare il piano e raccogliere le sottoscrizioni.',
  iframeLabel: 'Codice iframe',
  iframeLoading: 'Caricamento del codice…',
  copy: 'Copia codice',
  copied: 'Codice copiato negli appunti.',
  copyFailed: 'Copia non riuscita: seleziona il codice e copialo a mano (Ctrl+C).',
} as const;
