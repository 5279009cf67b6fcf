import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Component, Service } from '../../lib/model';
import { PodPlacement, placement, SchedulingKey } from '../../lib/scheduling';
import { podTemplate } from '../../constructs';

/** A minimal service for model tests: one Deployment per component, ids given by the test. */
export class TinyService extends Service {
  readonly parts: Record<string, Component> = {};

  constructor(
    scope: Construct,
    id: string,
    parts: string[] = ['api'],
    where: PodPlacement = placement(SchedulingKey.ANY_API),
  ) {
    super(scope, id);
    for (const part of parts) {
      const component = new Component(this, part, { placement: where });
      new k8s.KubeDeployment(component, 'deployment', {
        metadata: { name: component.componentName },
        spec: {
          selector: { matchLabels: component.selectorLabels },
          template: podTemplate(component, { containers: [{ name: 'main', image: 'example/app:1' }] }),
        },
      });
      this.parts[part] = component;
    }
  }

  protected get entryPoints(): readonly Component[] {
    return Object.values(this.parts);
  }
}
