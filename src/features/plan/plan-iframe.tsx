import { useQuery } from '@tanstack/react-query';
import { useId, useRef } from 'react';
import { apiPaths } from '../../../contract/api-paths';
import { messages } from '../../../contract/messages';
import { CopyIcon } from '../../components/icons';
import { http } from '../../lib/http';
import { notify } from '../../lib/notify';
import { useSelectedTenantId } from '../../lib/tenant-store';
import { planText } from './plan-text';

/**
 * `GET api/plan/iframe?planId=` answers the embed code as text/plain. A JSON envelope saying
 * `success: false` (or any failure) counts as "could not get it".
 */
export async function fetchIframeCode(
  planId: number,
  signal?: AbortSignal,
  tenantId?: number | null,
): Promise<string> {
  const res = await http.get<string>(apiPaths.plan.iframe, {
    params: { planId },
    responseType: 'text',
    signal,
    tenantId,
  });
  const text = typeof res.data === 'string' ? res.data : JSON.stringify(res.data);
  if (text.trimStart().startsWith('{')) {
    try {
      const env = JSON.parse(text) as { success?: boolean; data?: unknown };
      if (env.success === false) throw new Error('iframe: success false');
      if (typeof env.data === 'string') return env.data;
    } catch (error) {
      if (error instanceof SyntaxError) return text;
      throw error;
    }
  }
  return text;
}

/** The plan's embeddable iframe code (spec §2 'Plan screens offer an embeddable iframe code'), read-only with a copy button. */
export function PlanIframe({ planId }: { planId: number }) {
  const tenantId = useSelectedTenantId();
  const headingId = useId();
  const areaId = useId();
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const query = useQuery({
    queryKey: ['tenant', tenantId, 'plan', 'iframe', planId],
    queryFn: ({ signal }) => fetchIframeCode(planId, signal, tenantId),
    retry: false,
    meta: {
      errorMessage: messages.plan.iframeError,
      toastId: `iframe-${planId}`,
      logLabel: 'Errore nel recupero del codice iframe:',
    },
  });

  async function copy() {
    const code = query.data ?? '';
    try {
      if (!navigator.clipboard) throw new Error('clipboard non disponibile');
      await navigator.clipboard.writeText(code);
      notify.success(planText.copied);
    } catch (error) {
      console.error('Copia del codice iframe non riuscita:', error);
      areaRef.current?.select();
      notify.error(planText.copyFailed);
    }
  }

  return (
    <section aria-labelledby={headingId} className="card mt-6 p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {planText.iframeTitle}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{planText.iframeIntro}</p>
      {query.isError ? (
        <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
          {messages.plan.iframeError}
        </p>
      ) : (
        <div className="mt-4 space-y-3">
          <label htmlFor={areaId} className="sr-only">
            {planText.iframeLabel}
          </label>
          <textarea
            id={areaId}
            ref={areaRef}
            readOnly
            rows={4}
            spellCheck={false}
            className="input resize-y font-mono text-xs leading-relaxed"
            value={query.isPending ? planText.iframeLoading : (query.data ?? '')}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button
            type="button"
            className="btn-secondary"
            disabled={!query.isSuccess}
            onClick={() => void copy()}
          >
            <CopyIcon />
            {planText.copy}
          </button>
        </div>
      )}
    </section>
  );
}
