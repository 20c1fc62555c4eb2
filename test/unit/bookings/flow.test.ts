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

/** The parameters of `owner`'s methods whose type is (or holds) a function: a callback handed to the flow. */
function callbackParameters(code: string, owner: string): string[] {
  const found: string[] = [];
  const holdsFunction = (node: unknown): boolean =>
    Array.isArray(node)
      ? node.some(holdsFunction)
      : !!node &&
        typeof node === 'object' &&
        ((node as Tree).type === 'TSFunctionType' ||
          Object.entries(node as Tree).some(([key, child]) => key !== 'parent' && holdsFunction(child)));
  const visit = (node: unknown, inOwner: boolean): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, inOwner);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const tree = node as Tree;
    const here = inOwner || (tree.type === 'TSInterfaceDeclaration' && (tree.id as Tree).name === owner);
    if (here && tree.type === 'TSMethodSignature')
      for (const param of tree.params as Tree[])
        if (holdsFunction(param)) found.push(code.slice(Number(param.start), Number(param.end)));
    for (const [key, child] of Object.entries(tree)) if (key !== 'parent') visit(child, here);
  };
  visit(parseSync('flow.ts', code).program, false);
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

  it('takes no callback in any method of a flow: a late hold’s end comes back as data (LateHoldEnd)', () => {
    const flow = readFileSync('shared/bookings/flow.ts', 'utf8');
    expect(callbackParameters(flow, 'OrderFlow')).toEqual([]);
    const planted =
      'export interface OrderFlow { endLateHold(deps: D, expire: (left?: string) => Promise<boolean>): Promise<boolean>; }';
    expect(callbackParameters(planted, 'OrderFlow')).toEqual(['expire: (left?: string) => Promise<boolean>']);
  });
});
