// Tailwind 4 reads its theme from CSS; this file is loaded with `@config` from src/index.css so the
// design tokens of the product (the spec's three brand colours) live in one typed place.
import type { Config } from 'tailwindcss';

export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        brand: {
          sky: '#0ea5e9',
          blue: '#3b82f6',
          indigo: '#6366f1',
        },
      },
      fontFamily: {
        sans: [
          // Only for ツ (unicode-range U+30C4, see index.css); first, or a generic family's box wins.
          'Rinnova Kana',
          'Inter',
          'ui-sans-serif',
          'system-ui',
          '-apple-system',
          'Segoe UI',
          'Roboto',
          'sans-serif',
        ],
      },
    },
  },
} satisfies Config;
