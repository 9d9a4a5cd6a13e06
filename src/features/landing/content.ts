import type { ComponentType, SVGProps } from 'react';
import {
  BankIcon,
  BookIcon,
  ChartIcon,
  ClockIcon,
  CodeIcon,
  DatabaseIcon,
  LayersIcon,
  LinkIcon,
  ReceiptIcon,
  RefreshIcon,
  ShieldIcon,
  UsersIcon,
  WalletIcon,
} from '../../components/icons';

/** The landing page's copy, kept apart from the layout so it reads (and reviews) as text. */
export interface IconItem {
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  title: string;
  text: string;
}

export const advantages: IconItem[] = [
  {
    icon: RefreshIcon,
    title: 'Rinnovi automatici',
    text: 'Piani mensili, trimestrali, semestrali o annuali: la prossima data di addebito si calcola da sola e lo stato di ogni abbonamento resta aggiornato.',
  },
  {
    icon: WalletIcon,
    title: 'Incassi sul tuo conto',
    text: 'Colleghi il tuo account PayPal o Stripe e i clienti pagano direttamente a te. Nessun intermediario tiene i tuoi soldi.',
  },
  {
    icon: ReceiptIcon,
    title: 'Pensato per l’Italia',
    text: 'Interfaccia in italiano, importi in euro, IVA al 22% già impostata e anagrafiche con Partita IVA, codice SDI e PEC.',
  },
  {
    icon: ClockIcon,
    title: 'Tutto sotto controllo',
    text: 'Attivo, in attesa di bonifico, senza rinnovo automatico: capisci a colpo d’occhio chi ha pagato e chi no.',
  },
];

export interface PathStep {
  title: string;
  text: string;
}

export const linkPathSteps: PathStep[] = [
  { title: 'Crea il piano', text: 'Scegli prezzo, aliquota IVA e ricorrenza, dal mensile all’annuale.' },
  {
    title: 'Invia il link',
    text: 'Generi un link di pagamento personale e a scadenza, da mandare al cliente via e-mail o chat.',
  },
  {
    title: 'Incassa',
    text: 'Il cliente paga con PayPal; se preferisce il bonifico, attivi l’abbonamento quando lo ricevi.',
  },
];

export const apiPathSteps: PathStep[] = [
  {
    title: 'Ottieni le chiavi API',
    text: 'Ogni chiamata è autenticata, con limiti di frequenza e registro delle richieste.',
  },
  {
    title: 'Collega piani e funzionalità',
    text: 'Associ a ogni piano le funzionalità premium della tua applicazione.',
  },
  {
    title: 'Sblocca in automatico',
    text: 'Leggi lo stato dell’abbonamento e attivi o spegni le funzioni premium di conseguenza.',
  },
];

/** Spec §1's eight marketing claims, merged into exactly six cards. */
export const features: IconItem[] = [
  {
    icon: LinkIcon,
    title: 'Pagamenti tramite link',
    text: 'Incassi con un semplice link usando il tuo account PayPal o Stripe: i fondi arrivano direttamente sui tuoi conti, non sui nostri.',
  },
  {
    icon: CodeIcon,
    title: 'API e chiavi dedicate',
    text: 'Integri Rinnova nella tua app e le funzionalità premium seguono l’abbonamento. Chiavi API tue, con limiti di frequenza e log delle chiamate.',
  },
  {
    icon: DatabaseIcon,
    title: 'Database isolato per cliente',
    text: 'Ogni cliente ha il suo database dedicato: i dati restano separati, senza mescolarsi con quelli di nessun altro.',
  },
  {
    icon: UsersIcon,
    title: 'Ruoli SuperAdmin e Admin',
    text: 'Una gerarchia di ruoli chiara: il SuperAdmin governa tutti i tenant, gli Admin gestiscono utenti, piani e abbonamenti del proprio tenant.',
  },
  {
    icon: BankIcon,
    title: 'Bonifici con approvazione',
    text: 'Chi paga con bonifico resta in attesa finché non confermi l’accredito: approvi a mano e l’abbonamento si attiva.',
  },
  {
    icon: ChartIcon,
    title: 'Dashboard e report',
    text: 'Grafici su fatturato e abbonamenti, tabelle esportabili e report PDF con un clic, pronti per il commercialista.',
  },
];

export const pillars: IconItem[] = [
  {
    icon: LayersIcon,
    title: 'Multi-tenant dalle fondamenta',
    text: 'Ogni richiesta porta con sé il tenant selezionato: i dati di un cliente non compaiono mai nella vista di un altro.',
  },
  {
    icon: ShieldIcon,
    title: 'API protette',
    text: 'Chiave API su ogni chiamata, accesso con token a scadenza, limiti di frequenza e ruoli verificati lato server.',
  },
  {
    icon: RefreshIcon,
    title: 'Lavori in background',
    text: 'Gli aggiornamenti degli abbonamenti girano da soli, con una pagina di stato dedicata al SuperAdmin.',
  },
  {
    icon: BookIcon,
    title: 'Documentazione OpenAPI',
    text: 'Il riferimento delle API nasce dal codice ed è sempre consultabile dal tuo team di sviluppo.',
  },
];
