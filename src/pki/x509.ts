/**
 * The single place that loads @peculiar/x509. Its dependency injection (tsyringe) needs the
 * reflect-metadata polyfill installed before the library module is evaluated; ES import order
 * guarantees that only if every consumer goes through this file.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

export { x509 };

/**
 * Node's WebCrypto, passed explicitly to every generator call so the result does not depend on
 * a process-wide provider that other code could replace.
 */
export const nodeCrypto: webcrypto.Crypto = webcrypto;
