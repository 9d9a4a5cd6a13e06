import type { FastifyServerOptions } from 'fastify';
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
    return {
      ...base,
      transport: {
        target: 'pino-pretty',
        options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId', singleLine: true },
      },
    };
  }
  return base;
}
