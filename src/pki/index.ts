export {
  generateClusterPki,
  CA_COMMON_NAME,
  FRONT_PROXY_CLIENT,
  ADMIN_USER,
  ADMIN_GROUPS,
  type ClusterPki,
  type ClusterPkiOptions,
  type FrontProxyPki,
} from './cluster-pki.js';
export {
  signClientCertificate,
  type CertificateAuthorityPem,
  type CertificateAndKey,
  type ClientIdentity,
  type SignClientCertificateOptions,
} from './client-certificate.js';
export { type EtcdPki, etcdSans } from './etcd-pki.js';
export { CERTIFICATE_VALIDITY_MS, CERTIFICATE_BACKDATE_MS } from './certificate.js';
export { DEFAULT_KEY_ALGORITHM, type KeyAlgorithm } from './keys.js';
export { DEFAULT_SANS, type SubjectAltNames } from './sans.js';
