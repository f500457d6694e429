/**
 * YAML as Go's sigs.k8s.io/yaml reads and writes it (YAML 1.1 scalars, timestamps kept as
 * strings). The entry point for code outside src/gocompat/yaml.
 */
export { GO_YAML_OPTIONS, parseYamlDocuments, renderYamlDocuments } from './yaml.js';
export { parseK8sYaml, parseK8sYamlDocuments, YamlSyntaxError } from './k8s-yaml.js';
export { loadAllYaml11 } from './yaml11-schema.js';
