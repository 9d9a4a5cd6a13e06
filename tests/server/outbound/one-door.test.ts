/**
 * Every server-initiated connection goes through the outbound door (server/lib/outbound): the
 * server's sources are read (TypeScript's parser) for the calls that open a connection, so a call
 * added later on bare fetch, http(s).request, net/tls.connect, a Stripe client without the door's
 * agent or a nodemailer transport without its getSocket fails here the day it is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVER = path.join(ROOT, 'server');

/** Where a direct connection is right, and why. */
const ALLOWED: Record<string, string> = {
  'server/lib/outbound/': 'the door itself',
  'server/providers/fake-paypal.ts':
    'a development and test fake on loopback (its own deliveries to the app)',
  'server/providers/fake-stripe.ts': 'a development and test fake on loopback',
  'server/mail/mailer.ts':
    'the operator’s own SMTP relay (SMTP_URL), often on localhost: no tenant chooses it',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface Finding {
  file: string;
  line: number;
  call: string;
}

/** The calls that open a connection, with what makes them go through the door when they do. */
function findings(file: string): Finding[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Finding[] = [];
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  const unwrap = (node: ts.Node | undefined): ts.Node | undefined =>
    node && (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
      ? unwrap(node.expression)
      : node;
  const hasProperty = (arg: ts.Node | undefined, name: string) => {
    const node = unwrap(arg);
    return (
      !!node &&
      ts.isObjectLiteralExpression(node) &&
      node.properties.some((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name)
    );
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = node.expression.getText(source);
      const args = node.arguments ?? ts.factory.createNodeArray();
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const flag = (call: string) => out.push({ file: rel, line, call });
      if (ts.isCallExpression(node)) {
        if (callee === 'fetch' || callee === 'globalThis.fetch') flag('fetch');
        if (/^(http|https)\.(request|get)$/.test(callee)) flag(callee);
        if (/^(net|tls)\.(connect|createConnection)$/.test(callee)) flag(callee);
        if (/\.createTransport$/.test(callee) && !hasProperty(args[0], 'getSocket'))
          flag(`${callee} without getSocket`);
      } else if (callee === 'Stripe' && !hasProperty(args[1], 'httpAgent'))
        flag('new Stripe without httpAgent');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('one door for outbound connections', () => {
  it('no connection is opened in server/ outside lib/outbound (and the places listed with their reason)', () => {
    const all = sources(SERVER).flatMap(findings);
    const outside = all.filter((f) => !Object.keys(ALLOWED).some((prefix) => f.file.startsWith(prefix)));
    expect(outside).toEqual([]);
    // The check sees what it is meant to see: the door and the fakes do open connections.
    expect(all.some((f) => f.file.startsWith('server/lib/outbound/'))).toBe(true);
    expect(all.some((f) => f.file === 'server/providers/fake-paypal.ts' && f.call === 'fetch')).toBe(true);
  });
});
