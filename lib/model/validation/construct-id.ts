import { IConstruct } from 'constructs';
import { ValidationError } from './check';

/**
 * `id`, when no child of `scope` has it yet; otherwise a `ValidationError` naming the place
 * (`[prod/cache] a construct with id cache already exists here; choose another id`) instead of the
 * constructs library's `There is already a Construct with name …`. Called in the `super(scope, …)`
 * of the model's base classes, before the library adds the child.
 */
export function freeConstructId(scope: IConstruct, id: string): string {
  if (scope.node.tryFindChild(id) === undefined) return id;
  const where = scope.node.path ? `${scope.node.path}/${id}` : id;
  throw new ValidationError(where, [`a construct with id ${id} already exists here; choose another id`]);
}
