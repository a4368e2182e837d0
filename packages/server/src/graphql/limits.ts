/** Query limits (depth, aliases, cost) as GraphQL validation rules, so they hold on HTTP and WebSocket alike. */
import { GraphQLError, Kind, type ASTVisitor, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';

export const QUERY_LIMITS = { maxDepth: 12, maxAliases: 30, maxCost: 5000, listMultiplier: 10 } as const;

function tooComplex(detail: string): GraphQLError {
  return new GraphQLError(`${ERROR_TEXTS.queryTooComplex} (${detail})`, { extensions: { code: ERROR_CODES.QUERY_TOO_COMPLEX } });
}

/** Walks each operation once, following fragments, counting depth, aliases and a simple cost. */
export function queryLimitsRule(limits: typeof QUERY_LIMITS = QUERY_LIMITS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    return {
      OperationDefinition(node) {
        let aliases = 0;
        let maxDepth = 0;
        let cost = 0;
        const walk = (set: SelectionSetNode | undefined, depth: number, multiplier: number, seen: Set<string>) => {
          if (!set) return;
          for (const sel of set.selections) {
            if (sel.kind === Kind.FIELD) {
              const f = sel as FieldNode;
              if (f.alias) aliases += 1;
              if (f.name.value.startsWith('__')) continue;
              maxDepth = Math.max(maxDepth, depth);
              cost += multiplier;
              const paged = f.arguments?.some((a) => a.name.value === 'first' || a.name.value === 'last' || a.name.value === 'count');
              walk(f.selectionSet, depth + 1, f.selectionSet ? multiplier * (paged ? limits.listMultiplier : 1) : multiplier, seen);
            } else if (sel.kind === Kind.INLINE_FRAGMENT) {
              walk(sel.selectionSet, depth, multiplier, seen);
            } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
              const name = sel.name.value;
              if (seen.has(name)) continue;
              walk(fragments.get(name)?.selectionSet, depth, multiplier, new Set([...seen, name]));
            }
          }
        };
        walk(node.selectionSet, 1, 1, new Set());
        if (maxDepth > limits.maxDepth) context.reportError(tooComplex(`depth ${maxDepth} > ${limits.maxDepth}`));
        if (aliases > limits.maxAliases) context.reportError(tooComplex(`aliases ${aliases} > ${limits.maxAliases}`));
        if (cost > limits.maxCost) context.reportError(tooComplex(`cost ${cost} > ${limits.maxCost}`));
      },
    };
  };
}
