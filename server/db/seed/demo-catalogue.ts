import { featureKeyOf } from '../../../contract/integrations';
import { and, eq } from 'drizzle-orm';
import { Role } from '../../../contract/enums';
import type { SecretBox } from '../../lib/secret-box';
import type { Database } from '../client';
import {
  addresses,
  features,
  municipalities,
  paymentProviders,
  planFeatures,
  plans,
  provinces,
  users,
  userTenants,
} from '../schema';
import { CADASTRAL_CODES, codiceFiscale } from './demo-fixtures';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

const DEMO_PLANS = [
  {
    name: 'Basic',
    cost: '9.90',
    recurrenceType: 1,
    features: [
      ['Contenuti base', 'Accesso alla libreria di contenuti base'],
      ['Supporto via email', 'Risposta entro 2 giorni lavorativi'],
    ],
  },
  {
    name: 'Pro',
    cost: '29.90',
    recurrenceType: 1,
    features: [
      ['Tutti i contenuti', 'Libreria completa, nuovi contenuti ogni settimana'],
      ['Webinar mensili', null],
      ['Supporto prioritario', 'Risposta entro 1 giorno lavorativo'],
    ],
  },
  {
    name: 'Enterprise',
    cost: '990.00',
    recurrenceType: 12,
    features: [
      ['Tutti i contenuti', 'Libreria completa, nuovi contenuti ogni settimana'],
      ['Account manager dedicato', null],
      ['Fatturazione personalizzata', 'Fattura unica annuale con codice SDI'],
    ],
  },
] as const;

/**
 * Demo customers (role User) without a password: like accounts an admin creates, they would set one
 * by e-mail. Each has what an invoice needs: a person her codice fiscale, a company its Partita
 * IVA and SDI code, both an address in a real comune.
 */
const DEMO_CUSTOMERS = [
  {
    email: 'mario.rossi@example.com',
    name: 'Mario Rossi',
    phone: '+39 333 1234567',
    fiscalCode: codiceFiscale('Mario', 'Rossi', {
      year: 1968,
      month: 4,
      day: 23,
      sex: 'M',
      placeCode: CADASTRAL_CODES['Torino|TO'] ?? '',
    }),
    street: 'Via Roma 12',
    municipality: ['Torino', 'TO'],
  },
  {
    email: 'amministrazione@bianchi-consulting.example.com',
    name: 'Bianchi Consulting Srl',
    isCompany: true,
    vatCode: '12345678903',
    fiscalCode: '12345678903',
    sdi: 'M5UXCR1',
    pec: 'bianchi-consulting@pec.example.com',
    street: 'Corso Buenos Aires 45',
    municipality: ['Milano', 'MI'],
  },
  {
    email: 'laura.verdi@example.com',
    name: 'Laura Verdi',
    fiscalCode: codiceFiscale('Laura', 'Verdi', {
      year: 1985,
      month: 9,
      day: 7,
      sex: 'F',
      placeCode: CADASTRAL_CODES['Napoli|NA'] ?? '',
    }),
    street: 'Via Toledo 210',
    municipality: ['Napoli', 'NA'],
  },
] as const;

/** The demo User's billing data in Demo Srl (her own address in Rome is her billing address). */
const CLIENTE_FISCAL_CODE = codiceFiscale('Cliente', 'Demo', {
  year: 1990,
  month: 3,
  day: 15,
  sex: 'F',
  placeCode: CADASTRAL_CODES['Roma|RM'] ?? '',
});

async function municipalityOf(tx: Tx, name: string, province: string) {
  const [row] = await tx
    .select({
      id: municipalities.id,
      zip: municipalities.zip,
      provinceId: provinces.id,
      regionId: provinces.regionId,
    })
    .from(municipalities)
    .innerJoin(provinces, eq(provinces.id, municipalities.provinceId))
    .where(and(eq(municipalities.name, name), eq(provinces.abbreviation, province)));
  return row;
}

/**
 * What makes the demo tenant look used: plans with features, a feature catalogue, a PayPal
 * sandbox row with PLACEHOLDER credentials (to be replaced in 'Configura PayPal'), customers
 * with billing addresses and addresses of the demo User. Part of the one-time 'demo' seed step.
 */
export async function seedDemoCatalogue(
  tx: Tx,
  tenantId: number,
  demoUserId: number | undefined,
  secretBox: SecretBox | undefined,
): Promise<void> {
  for (const plan of DEMO_PLANS) {
    const [row] = await tx
      .insert(plans)
      .values({
        tenantId,
        name: plan.name,
        recurringCostBeforeVat: plan.cost,
        recurrenceType: plan.recurrenceType,
      })
      .returning({ id: plans.id });
    if (!row) continue;
    await tx.insert(planFeatures).values(
      plan.features.map(([featureName, description]) => ({
        tenantId,
        planId: row.id,
        featureName,
        description,
      })),
    );
  }
  const catalogue = new Map(DEMO_PLANS.flatMap((p) => p.features.map(([name, d]) => [name, d] as const)));
  await tx.insert(features).values(
    [...catalogue].map(([featureName, description]) => ({
      tenantId,
      featureName,
      key: featureKeyOf(featureName),
      description,
    })),
  );

  const [provider] = await tx
    .insert(paymentProviders)
    .values({
      tenantId,
      name: 'PayPal Sandbox (credenziali segnaposto)',
      apiUrl: 'https://api-m.sandbox.paypal.com',
      apiKey: 'SEGNAPOSTO-sandbox-client-id',
    })
    .returning({ id: paymentProviders.id });
  // Sealed to its row (secret-box.ts): the id exists only after the insert.
  if (provider && secretBox)
    await tx
      .update(paymentProviders)
      .set({
        apiSecretEncrypted: secretBox.seal(
          'SEGNAPOSTO-sandbox-secret',
          'payment_providers.api_secret_encrypted',
          provider.id,
        ),
      })
      .where(eq(paymentProviders.id, provider.id));

  for (const customer of DEMO_CUSTOMERS) {
    const place = await municipalityOf(tx, customer.municipality[0], customer.municipality[1]);
    const [user] = await tx
      .insert(users)
      .values({ email: customer.email, name: customer.name, roleId: Role.User, defaultTenantId: tenantId })
      .returning({ id: users.id });
    if (!user) continue;
    await tx.insert(userTenants).values({
      userId: user.id,
      tenantId,
      name: customer.name,
      pec: 'pec' in customer ? customer.pec : null,
      phone: 'phone' in customer ? customer.phone : null,
      sdi: 'sdi' in customer ? customer.sdi : null,
      vatCode: 'vatCode' in customer ? customer.vatCode : null,
      fiscalCode: customer.fiscalCode,
      isCompany: 'isCompany' in customer ? customer.isCompany : false,
      billingStreet: customer.street,
      billingZip: place?.zip ?? null,
      billingRegionId: place?.regionId ?? null,
      billingProvinceId: place?.provinceId ?? null,
      billingMunicipalityId: place?.id ?? null,
    });
  }

  const rome = await municipalityOf(tx, 'Roma', 'RM');
  const milan = await municipalityOf(tx, 'Milano', 'MI');
  const own = [
    ...(rome && demoUserId
      ? [{ street: 'Via del Corso 101', zip: rome.zip, municipalityId: rome.id, userId: demoUserId }]
      : []),
    ...(milan && demoUserId
      ? [{ street: 'Via Dante 7', zip: milan.zip, municipalityId: milan.id, userId: demoUserId }]
      : []),
    ...(milan
      ? [{ street: 'Piazza Duomo 1 (sede)', zip: milan.zip, municipalityId: milan.id, userId: null }]
      : []),
  ];
  if (own.length > 0) await tx.insert(addresses).values(own.map((a) => ({ ...a, tenantId })));
  if (rome && demoUserId)
    await tx
      .update(userTenants)
      .set({
        fiscalCode: CLIENTE_FISCAL_CODE,
        billingStreet: 'Via del Corso 101',
        billingZip: rome.zip,
        billingRegionId: rome.regionId,
        billingProvinceId: rome.provinceId,
        billingMunicipalityId: rome.id,
      })
      .where(and(eq(userTenants.tenantId, tenantId), eq(userTenants.userId, demoUserId)));
}
