import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilterPanel, type FilterPanelProps } from '../../../src/components/filter-panel';

const props = (overrides: Partial<FilterPanelProps> = {}): FilterPanelProps => ({
  filters: [{ kind: 'text', key: 'name', name: 'Nome' }],
  searchable: true,
  draft: { searchTerm: '', filters: {} },
  activeCount: 0,
  onFilterChange: () => {},
  onSearchChange: () => {},
  onApply: () => {},
  onReset: () => {},
  isLoading: false,
  ...overrides,
});

function phoneScreen(matches: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) => ({ matches: matches && query.includes('max-width'), media: query }) as MediaQueryList,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('FilterPanel: open or closed at first', () => {
  it('starts open on a wide screen', () => {
    phoneScreen(false);
    render(<FilterPanel {...props()} />);
    expect(screen.getByRole('button', { name: /Filtri di Ricerca/ })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(screen.getByPlaceholderText('Filtra per Nome')).toBeVisible();
  });

  it('starts closed on a phone, and opens on a tap', async () => {
    phoneScreen(true);
    render(<FilterPanel {...props()} />);
    const toggle = screen.getByRole('button', { name: /Filtri di Ricerca/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByPlaceholderText('Filtra per Nome')).not.toBeVisible();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByPlaceholderText('Filtra per Nome')).toBeVisible();
  });

  it('stays open on a phone while criteria are applied', () => {
    phoneScreen(true);
    render(<FilterPanel {...props({ activeCount: 1 })} />);
    expect(screen.getByRole('button', { name: /Filtri di Ricerca/ })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });
});
