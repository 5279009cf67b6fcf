import { IConstruct } from 'constructs';

/**
 * A check that runs at synthesis, for what only the finished tree can tell (cycles, duplicate
 * objects, a consumer that was never added); cdk8s prefixes each message with the construct path.
 * What a constructor builds from is checked earlier, at the boundary: see {@link assertNoProblems}.
 */
export function addCheck(scope: IConstruct, check: () => string[]): void {
  scope.node.addValidation({ validate: check });
}

/**
 * Invalid input found at a boundary (a construct's props, a call such as `dependsOn`, a manifest):
 * every problem at once, each prefixed with where it was found.
 */
export class ValidationError extends Error {
  constructor(
    /** The construct path (or file) the problems belong to. */
    readonly where: string,
    /** Each problem with its fix, without the prefix. */
    readonly problems: readonly string[],
  ) {
    super(formatProblems(where, problems));
    this.name = 'ValidationError';
  }
}

/** `Validation failed …` with one `[where] problem` line per problem: the format of synthesis errors too. */
export function formatProblems(where: string, problems: readonly string[]): string {
  return `Validation failed with the following errors:\n  ${problems.map((p) => `[${where}] ${p}`).join('\n  ')}`;
}

/**
 * Fails construction when there are problems: the boundary check of a construct, run before it
 * builds anything from its props (an array of `replicas` members, a rendered file).
 */
export function assertNoProblems(scope: IConstruct, problems: readonly string[]): void {
  if (problems.length > 0) throw new ValidationError(scope.node.path || '<root>', problems);
}
