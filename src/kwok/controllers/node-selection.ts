/**
 * Which nodes this controller manages: all nodes, one node by name, nodes
 * matching a label selector (sent to the server), or nodes whose *annotations* match a
 * label-selector expression (evaluated here). The deprecated disregard selectors exclude nodes and
 * pods whose labels/annotations match.
 */
import { parseLabelSelector, type LabelSelector, type KubeObject, type ListOptions } from '../../kube/index.js';

export type ManageMode =
  | { kind: 'all' }
  | { kind: 'single'; nodeName: string }
  | { kind: 'label-selector'; selector: string }
  | { kind: 'annotation-selector'; selector: string };

export interface DisregardSelectors {
  annotationSelector?: string;
  labelSelector?: string;
}

export interface NodeSelection {
  readonly mode: ManageMode;
  /** Selectors for the node watch. */
  readonly nodeWatch: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>;
  /** Selectors for the pod watch: only scheduled pods (or those on the single node). */
  readonly podWatch: Pick<ListOptions, 'fieldSelector'>;
  /** Whether a node is managed (selected and not disregarded). */
  isManagedNode(node: KubeObject): boolean;
  /** Whether an object's own labels/annotations put it outside kwok's control. */
  isDisregarded(object: KubeObject): boolean;
}

function optionalSelector(text: string | undefined): LabelSelector | undefined {
  return text ? parseLabelSelector(text) : undefined;
}

export function buildNodeSelection(mode: ManageMode, disregard: DisregardSelectors = {}): NodeSelection {
  const disregardAnnotations = optionalSelector(disregard.annotationSelector);
  const disregardLabels = optionalSelector(disregard.labelSelector);
  const labelSelector = mode.kind === 'label-selector' ? parseLabelSelector(mode.selector) : undefined;
  const annotationSelector = mode.kind === 'annotation-selector' ? parseLabelSelector(mode.selector) : undefined;

  // Like kwok, an object with no labels (annotations) never matches a disregard selector.
  const isDisregarded = (object: KubeObject): boolean => {
    const { labels, annotations } = object.metadata;
    if (disregardAnnotations && annotations && Object.keys(annotations).length > 0 && disregardAnnotations.matches(annotations)) return true;
    if (disregardLabels && labels && Object.keys(labels).length > 0 && disregardLabels.matches(labels)) return true;
    return false;
  };

  return {
    mode,
    nodeWatch:
      mode.kind === 'single'
        ? { fieldSelector: `metadata.name=${mode.nodeName}` }
        : mode.kind === 'label-selector'
          ? { labelSelector: mode.selector }
          : {},
    podWatch: { fieldSelector: mode.kind === 'single' ? `spec.nodeName=${mode.nodeName}` : 'spec.nodeName!=' },
    isManagedNode(node) {
      switch (mode.kind) {
        case 'single':
          if (node.metadata.name !== mode.nodeName) return false;
          break;
        case 'label-selector':
          if (!labelSelector!.matches(node.metadata.labels)) return false;
          break;
        case 'annotation-selector':
          if (!annotationSelector!.matches(node.metadata.annotations)) return false;
          break;
        case 'all':
          break;
      }
      return !isDisregarded(node);
    },
    isDisregarded,
  };
}
