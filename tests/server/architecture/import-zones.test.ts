/**
 * The SPA's import zones (eslint.config.js `spaZones`): app → features → entities →
 * components / lib → contract, never back, type imports included. Each case lints a one-line
 * module placed in a zone with the project's own ESLint configuration, as `npm run lint` would.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function zoneErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const x = 1;\n`, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'import-x/no-restricted-paths')
    .map((m) => m.message);
}

describe('import zones of the SPA', () => {
  it.each([
    [
      'a feature importing app/',
      'src/features/plan/zone-probe.ts',
      "import { registry } from '../../app/registry';",
    ],
    [
      'a feature importing a type from app/',
      'src/features/plan/zone-probe.ts',
      "import type { AppRoute } from '../../app/registry';",
    ],
    [
      'a feature importing another feature',
      'src/features/plan/zone-probe.ts',
      "import { getPlanWidget } from '../payment/api/payment-queries';",
    ],
    [
      'an entity importing a feature',
      'src/entities/plan/zone-probe.ts',
      "import { PlanIframe } from '../../features/plan/plan-iframe';",
    ],
    [
      'an entity importing app/',
      'src/entities/plan/zone-probe.ts',
      "import type { AppRoute } from '../../app/registry';",
    ],
    [
      'a component importing an entity',
      'src/components/zone-probe.ts',
      "import { planResource } from '../entities/plan/plan.resource';",
    ],
    [
      'lib importing a feature',
      'src/lib/zone-probe.ts',
      "import type { PlanIframe } from '../features/plan/plan-iframe';",
    ],
    [
      'the contract importing the SPA',
      'contract/zone-probe.ts',
      "import type { ResourceDef } from '../src/lib/resource';",
    ],
  ])('refuses %s', async (_name, filePath, code) => {
    expect(await zoneErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      'app importing a feature',
      'src/app/zone-probe.ts',
      "import type { ScreenProps } from '../lib/resource';\nimport { PlanIframe } from '../features/plan/plan-iframe';",
    ],
    [
      'a feature importing an entity',
      'src/features/plan/zone-probe.ts',
      "import { planResource } from '../../entities/plan/plan.resource';",
    ],
    [
      'an entity importing lib and the contract',
      'src/entities/plan/zone-probe.ts',
      "import { defineResource } from '../../lib/resource';\nimport { access } from '../../../contract/access';",
    ],
  ])('allows %s', async (_name, filePath, code) => {
    expect(await zoneErrors(filePath, code)).toEqual([]);
  });
});
