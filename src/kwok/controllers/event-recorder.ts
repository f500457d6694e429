/**
 * Kubernetes Events for stage `event` steps, named and shaped like client-go's recorder
 * ("<name>.<hex unix nanos>", source component kwok_controller) so `kubectl describe` shows them.
 * Recording is best effort: a failed Event never fails the stage.
 */
import type { Logger } from '../../util/log.js';
import { eventsResource, type KubeClient, type KubeObject } from '../../kube/index.js';

export const eventSourceComponent = 'kwok_controller';

export interface EventSpec {
  type: string;
  reason: string;
  message: string;
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function formatTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function buildEvent(object: KubeObject, event: EventSpec, now: Date, host: string): KubeObject {
  const { name = '', namespace, uid, resourceVersion } = object.metadata;
  const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
  const timestamp = formatTime(now);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${nanos.toString(16)}`, namespace: namespace || 'default' },
    involvedObject: {
      apiVersion: object.apiVersion,
      kind: object.kind,
      name,
      ...(namespace ? { namespace } : {}),
      ...(uid ? { uid } : {}),
      ...(resourceVersion ? { resourceVersion } : {}),
    },
    type: event.type || 'Normal',
    reason: event.reason,
    message: event.message,
    source: { component: eventSourceComponent, ...(host ? { host } : {}) },
    firstTimestamp: timestamp,
    lastTimestamp: timestamp,
    count: 1,
    reportingComponent: eventSourceComponent,
    reportingInstance: host,
  };
}

export class EventRecorder {
  constructor(
    private readonly client: KubeClient,
    private readonly logger: Logger,
    private readonly host: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async record(object: KubeObject, event: EventSpec): Promise<void> {
    try {
      await this.client.create(eventsResource, buildEvent(object, event, this.now(), this.host));
    } catch (error) {
      this.logger.warn(`event ${event.reason} for ${object.kind} ${object.metadata.name}: ${(error as Error).message}`);
    }
  }
}
