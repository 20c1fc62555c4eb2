import { readFileSync } from 'node:fs';
import { parseSync } from 'rolldown/utils';
import { describe, expect, it } from 'vitest';

type Tree = { type?: string; [key: string]: unknown };

/**
 * The walks of cancel and confirm go one way down (docs/decisions.md, "The booking house"): what a
 * route hands its flow is data, never a function of the route's for the flow to call back up with.
 * Answers each function type found in the interfaces named `names`.
 */
function callbacksHandedDown(code: string, names: readonly string[]): string[] {
  const found: string[] = [];
  const visit = (node: unknown, owner: string | undefined): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, owner);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const tree = node as Tree;
    if (tree.type === 'TSInterfaceDeclaration' || tree.type === 'TSTypeAliasDeclaration') {
      const name = String((tree.id as Tree).name);
      owner = names.includes(name) ? name : undefined;
    }
    if (owner && (tree.type === 'TSFunctionType' || tree.type === 'TSMethodSignature')) {
      found.push(`${owner}: ${code.slice(Number(tree.start), Number(tree.end))}`);
    }
    for (const [key, child] of Object.entries(tree)) if (key !== 'parent') visit(child, owner);
  };
  visit(parseSync('flow.ts', code).program, undefined);
  return found;
}

describe('fn: booking flow requests', () => {
  it('hands the flow of confirm and of cancel data only, no callback into the route', () => {
    const flow = readFileSync('shared/bookings/flow.ts', 'utf8');
    expect(callbacksHandedDown(flow, ['HoldConfirm', 'CancelRequest'])).toEqual([]);
  });

  it('finds a callback planted in a request', () => {
    const planted = 'export interface HoldConfirm { readonly reread: () => Promise<void>; again(): void }';
    expect(callbacksHandedDown(planted, ['HoldConfirm'])).toEqual([
      'HoldConfirm: () => Promise<void>',
      'HoldConfirm: again(): void',
    ]);
  });
});
