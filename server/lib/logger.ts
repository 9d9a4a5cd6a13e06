import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';
import type PinoPretty from 'pino-pretty';
import type { Config } from '../config';
import { safeSerializers } from './log-safe';

/**
 * The server's log: JSON lines in production (for collectors), readable single lines in
 * development (pino-pretty; LOG_FORMAT=json|pretty overrides). Every format goes through the
 * safe serializers (no query parameters, no query-string values) and redacts credentials.
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  stream?: { write(line: string): unknown },
): NonNullable<FastifyServerOptions['logger']> {
  const base = {
    level: config.logLevel,
    serializers: safeSerializers,
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'password', 'newPassword', 'token'],
  };
  if (stream) return { ...base, stream };
  if (config.logFormat === 'pretty' && config.logLevel !== 'silent') {
    // In this thread, not as a transport: a transport is a worker thread of its own (~20 MB
    // resident, measured after the ISTAT seed) for lines a person reads in a terminal. Loaded
    // only here: production logs JSON.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
    const prettyStream = pretty.build({
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId',
      singleLine: true,
      // Written at once: nothing buffered is lost when the process exits after its last line.
      sync: true,
    });
    return { ...base, stream: prettyStream };
  }
  return base;
}
