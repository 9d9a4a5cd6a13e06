import { PLAN_WIDGET_PATH } from '../../../contract/schemas/plan';
import { escapeHtml } from '../../lib/html';

/** The embed code of a plan's public widget (`GET api/plan/iframe`), as pasted into another site. */
export function planIframeCode(origin: string, plan: { id: number; name: string }): string {
  const src = `${origin}${PLAN_WIDGET_PATH}?planId=${plan.id}`;
  return (
    `<iframe src="${escapeHtml(src)}" title="${escapeHtml(`Abbonamento: ${plan.name}`)}" ` +
    'width="100%" height="640" style="border:0;max-width:480px" loading="lazy"></iframe>'
  );
}
