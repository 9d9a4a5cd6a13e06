/**
 * The dashboard home (spec §2 'Dashboard home') on a summary from the server: the typed greeting,
 * the four KPI cards, the MoM change's colours, the charts' titles, the spinner and the empty
 * state that leads to creating a plan and a subscription.
 */
import { act, render, renderHook, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../contract/enums';
import type { DashboardSummary } from '../../../contract/schemas/dashboard';
import { KpiCards, MomChange } from '../../../src/features/dashboard/kpi-cards';
import { PAUSE_MS, TYPE_MS, useTypedGreeting } from '../../../src/features/dashboard/use-typed-greeting';
import { renderApp } from '../app/harness';
import { apiGet, deferred, emptyDashboardSummary, ok, recordRequests, server } from '../msw/server';

const months = [
  ['2025-04', 'apr 25'],
  ['2025-05', 'mag 25'],
  ['2025-06', 'giu 25'],
  ['2025-07', 'lug 25'],
  ['2025-08', 'ago 25'],
  ['2025-09', 'set 25'],
  ['2025-10', 'ott 25'],
  ['2025-11', 'nov 25'],
  ['2025-12', 'dic 25'],
  ['2026-01', 'gen 26'],
  ['2026-02', 'feb 26'],
  ['2026-03', 'mar 26'],
].map(([month, label], i) => ({
  month: month!,
  label: label!,
  revenueCents: 100_000 + i * 50_000,
  newSubscriptions: 3 + i,
  churned: 1,
  active: 20 + i * 2,
}));

function summary(overrides: Partial<DashboardSummary> = {}): DashboardSummary {
  return {
    currency: 'EUR',
    timeZone: 'Europe/Rome',
    generatedAt: '2026-03-15T10:00:00.000Z',
    mrrCents: 1_234_567,
    activeSubscriptions: 42,
    churnRate: 12.5,
    newCustomersThisMonth: 7,
    momChange: 16.67,
    months,
    plans: [
      { planId: 1, name: 'Basic', value: 20 },
      { planId: 2, name: 'Pro', value: 15 },
      { planId: 3, name: 'Enterprise', value: 7 },
    ],
    hasPlans: true,
    hasSubscriptions: true,
    collection: {
      overdue: { count: 0, amount: 0 },
      recoveredThisMonth: { count: 0, amount: 0, rate: null },
    },
    ...overrides,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('KPI cards', () => {
  it('show MRR in euro, active subscriptions, churn with one decimal and new customers', () => {
    render(<KpiCards summary={summary()} />);
    const card = (label: string) => screen.getByText(label).closest('div')!;
    expect(within(card('Entrate ricorrenti mensili (MRR)')).getByText('12.345,67 €')).toBeInTheDocument();
    expect(within(card('Abbonamenti attivi')).getByText('42')).toBeInTheDocument();
    expect(within(card('Tasso di churn')).getByText('12,5 %')).toBeInTheDocument();
    expect(within(card('Nuovi clienti questo mese')).getByText('7')).toBeInTheDocument();
  });

  it('explain churn in a tooltip tied to its info button', () => {
    render(<KpiCards summary={summary({ churnRate: 3 })} />);
    expect(screen.getByText('3,0 %')).toBeInTheDocument();
    const info = screen.getByRole('button', { name: 'Cos’è il tasso di churn' });
    const tooltip = document.getElementById(info.getAttribute('aria-describedby')!)!;
    expect(tooltip).toHaveAttribute('role', 'tooltip');
    expect(tooltip).toHaveTextContent(/abbonamenti usciti da uno stato attivo questo mese/);
    expect(tooltip).toHaveTextContent(/÷ \(abbonamenti attivi ora \+ quelli usciti\) × 100/);
  });

  it('show a dash when there is no churn rate (nothing live, nothing lost)', () => {
    render(<KpiCards summary={summary({ churnRate: null })} />);
    expect(within(screen.getByText('Tasso di churn').closest('div')!).getByText('—')).toBeInTheDocument();
  });
});

describe('month-over-month change', () => {
  it.each([
    [16.67, '▲ +16,67 %', 'text-emerald-700'],
    [0, '▲ 0,00 %', 'text-emerald-700'],
    [-3.5, '▼ −3,50 %', 'text-red-700'],
  ] as const)('%s is shown as %s in %s', (change, text, colour) => {
    render(<MomChange change={change} />);
    const badge = screen.getByTestId('mom-change');
    expect(badge).toHaveTextContent(text);
    expect(badge).toHaveClass(colour);
  });

  it('without a previous month: no figure, no colour', () => {
    render(<MomChange change={null} />);
    expect(screen.queryByTestId('mom-change')).not.toBeInTheDocument();
    expect(screen.getByText(/— rispetto al mese scorso/)).toBeInTheDocument();
  });
});

describe('the typed greeting', () => {
  it('types at 70 ms per character, pauses 1000 ms, then types the question', () => {
    vi.useFakeTimers();
    const first = 'Benvenuto, Giulia.';
    const question = 'Cosa vuoi fare oggi con Rinnova?';
    const { result } = renderHook(() => useTypedGreeting(first, question));
    const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));
    expect(result.current).toEqual(['', '', false]);
    for (let n = 1; n <= first.length; n++) {
      tick(TYPE_MS - 1);
      expect(result.current[0]).toBe(first.slice(0, n - 1));
      tick(1);
      expect(result.current[0]).toBe(first.slice(0, n));
    }
    tick(PAUSE_MS - 1);
    expect(result.current[1]).toBe('');
    tick(1);
    expect(result.current[1]).toBe('C');
    for (let n = 2; n <= question.length; n++) tick(TYPE_MS);
    expect(result.current).toEqual([first, question, true]);
    tick(10_000);
    expect(result.current).toEqual([first, question, true]);
  });
});

describe('the dashboard page', () => {
  it('greets the signed-in person by name, the whole text readable by assistive tech', async () => {
    renderApp('/', {
      role: Role.Admin,
      tenantId: 1,
      storage: { user: JSON.stringify({ email: 'giulia@rinnova.test', role: 2, name: 'Giulia' }) },
    });
    expect(
      await screen.findByRole('heading', { name: 'Benvenuto, Giulia. Cosa vuoi fare oggi con Rinnova?' }),
    ).toBeInTheDocument();
  });

  it('shows a centred spinner while the summary loads, then the cards and the charts', async () => {
    const gate = deferred();
    server.use(
      apiGet('dashboard/summary', async () => {
        await gate.promise;
        return ok(summary());
      }),
    );
    const calls = recordRequests();
    renderApp('/', { role: Role.Admin, tenantId: 4 });
    const spinner = await screen.findByRole('status');
    expect(spinner.parentElement).toHaveClass('flex', 'items-center', 'justify-center');
    gate.resolve();
    expect(await screen.findByText('12.345,67 €')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Fatturato ultimi 12 mesi' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Abbonamenti per piano' })).toBeInTheDocument();
    expect(
      screen.getByRole('region', { name: 'Conteggio abbonamenti (Ultimi 12 mesi)' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('region', { name: 'Nuovi abbonamenti vs. Churn (Ultimi 12 mesi)' }),
    ).toBeInTheDocument();
    const count = within(screen.getByRole('region', { name: 'Conteggio abbonamenti (Ultimi 12 mesi)' }));
    expect(count.getByText('42')).toBeInTheDocument();
    expect(count.getByTestId('mom-change')).toHaveTextContent('+16,67 %');
    const summaryCall = calls.find((c) => c.url.includes('/dashboard/summary'))!;
    expect(summaryCall.headers.get('X-Tenant-Id')).toBe('4');
  });

  it('an empty tenant: an honest empty state leading to a plan, then a subscription', async () => {
    server.use(apiGet('dashboard/summary', () => ok(emptyDashboardSummary)));
    renderApp('/', { role: Role.Admin, tenantId: 1 });
    expect(
      await screen.findByRole('heading', { name: 'La tua dashboard è pronta per i primi dati' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Crea un piano di abbonamento' })).toHaveAttribute(
      'href',
      '/plan/new',
    );
    expect(screen.getByRole('link', { name: 'Crea la prima sottoscrizione' })).toHaveAttribute(
      'href',
      '/subscription/new',
    );
    expect(screen.queryByText('Entrate ricorrenti mensili (MRR)')).not.toBeInTheDocument();
  });

  it('with plans but no subscription yet, the plan step is done', async () => {
    server.use(apiGet('dashboard/summary', () => ok({ ...emptyDashboardSummary, hasPlans: true })));
    renderApp('/', { role: Role.Admin, tenantId: 1 });
    expect(await screen.findByText('Piano creato')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Crea un piano di abbonamento' })).not.toBeInTheDocument();
  });

  it('a User sees no business figures and makes no summary call: their home is the area', async () => {
    const calls = recordRequests();
    renderApp('/', { role: Role.User, tenantId: 1 });
    await screen.findByRole('heading', { level: 1, name: 'Area clienti' });
    expect(screen.queryByText('Abbonamenti attivi')).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('dashboard/summary'))).toBe(false);
  });
});
