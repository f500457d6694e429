/**
 * Kubernetes reads these files with Go's crypto/x509 and client-go's keyutil, not OpenSSL.
 * This test runs the same standard-library calls (keyutil's parsing order is reproduced
 * below) on our output. It needs a Go toolchain and skips, saying so, without one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { generateClusterPki, signClientCertificate } from '../../../src/pki/index.js';
import { hasBinary, scratchDir, writeFiles } from './helpers.js';

const GO_PROGRAM = String.raw`package main

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
)

var dir string

func read(name string) []byte {
	b, err := os.ReadFile(dir + "/" + name)
	if err != nil {
		panic(err)
	}
	return b
}

func cert(name string) *x509.Certificate {
	block, _ := pem.Decode(read(name))
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		panic(err)
	}
	return c
}

func report(check string, err error) {
	if err == nil {
		fmt.Printf("%s: ok\n", check)
	} else {
		fmt.Printf("%s: %v\n", check, strings.ReplaceAll(err.Error(), "\n", " "))
	}
}

// keyutil.ParsePublicKeysPEM, as in k8s.io/client-go/util/keyutil/key.go.
func parsePublicKeysPEM(data []byte) error {
	n := 0
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil && k != nil {
			n++
			continue
		}
		if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
			if _, ok := k.(*rsa.PrivateKey); ok {
				n++
				continue
			}
		}
		if k, err := x509.ParsePKIXPublicKey(block.Bytes); err == nil {
			switch k.(type) {
			case *rsa.PublicKey, *ecdsa.PublicKey:
				n++
				continue
			}
		}
		if _, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
			n++
			continue
		}
	}
	if n == 0 {
		return fmt.Errorf("data does not contain any valid RSA or ECDSA public keys")
	}
	return nil
}

// keyutil.ParsePrivateKeyPEM.
func parsePrivateKeyPEM(data []byte) error {
	block, _ := pem.Decode(data)
	switch block.Type {
	case "EC PRIVATE KEY":
		_, err := x509.ParseECPrivateKey(block.Bytes)
		return err
	case "RSA PRIVATE KEY":
		_, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		return err
	case "PRIVATE KEY":
		_, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		return err
	}
	return fmt.Errorf("unknown block %s", block.Type)
}

func main() {
	dir = os.Args[1]
	roots := x509.NewCertPool()
	roots.AddCert(cert("ca.crt"))
	admin := cert("admin.crt")
	// Late in the 100 years: the GeneralizedTime notAfter was read right.
	late := admin.NotAfter.Add(-time.Hour)
	for _, name := range []string{"kubernetes.default.svc", "localhost", "127.0.0.1", "::1"} {
		_, err := admin.Verify(x509.VerifyOptions{Roots: roots, DNSName: name, CurrentTime: late, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
		report("serve "+name, err)
	}
	_, err := admin.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	report("client admin", err)
	report("identity admin", expect(admin.Subject.CommonName == "kwok-admin" && len(admin.Subject.Organization) == 1 && admin.Subject.Organization[0] == "system:masters"))
	report("ip sans", expect(len(admin.IPAddresses) == 2 && admin.IPAddresses[1].Equal(net.ParseIP("::1"))))
	_, err = tls.X509KeyPair(read("admin.crt"), read("admin.key"))
	report("keypair admin", err)
	_, err = tls.X509KeyPair(read("ca.crt"), read("ca.key"))
	report("keypair ca", err)
	report("sa public from pub", parsePublicKeysPEM(read("sa.pub")))
	report("sa public from key", parsePublicKeysPEM(read("sa.key")))
	report("sa private", parsePrivateKeyPEM(read("sa.key")))
	report("pkcs8 control public", parsePublicKeysPEM(read("sa-pkcs8.key")))
	alice := cert("alice.crt")
	_, err = alice.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	report("client alice", err)
	_, err = alice.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	report("serve alice", err)
	report("identity alice", expect(alice.Subject.CommonName == "alice" && strings.Join(alice.Subject.Organization, ",") == "dev,ops"))
}

func expect(ok bool) error {
	if ok {
		return nil
	}
	return fmt.Errorf("unexpected value")
}
`;

describe('Go (crypto/x509, keyutil) reads what kwokts writes', { skip: hasBinary('go') ? false : 'skip: no go toolchain on PATH' }, () => {
  it('parses, verifies and loads every file as kube-apiserver would', { timeout: 300_000 }, async (t) => {
    const scratch = scratchDir('kwokts-go-compat-');
    try {
      const pki = await generateClusterPki();
      const alice = await signClientCertificate({ cert: pki.caCert, key: pki.caKey }, { user: 'alice', groups: ['dev', 'ops'] });
      writeFiles(scratch.dir, {
        'ca.crt': pki.caCert,
        'ca.key': pki.caKey,
        'admin.crt': pki.adminCert,
        'admin.key': pki.adminKey,
        'sa.key': pki.serviceAccountKey,
        'sa.pub': pki.serviceAccountPub,
        'sa-pkcs8.key': createPrivateKey(pki.serviceAccountKey).export({ type: 'pkcs8', format: 'pem' }).toString(),
        'alice.crt': alice.cert,
      });
      writeFileSync(join(scratch.dir, 'main.go'), GO_PROGRAM);
      const start = performance.now();
      const output = execFileSync('go', ['run', 'main.go', scratch.dir], {
        cwd: scratch.dir,
        encoding: 'utf8',
        env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '' },
      });
      t.diagnostic(`go run took ${(performance.now() - start).toFixed(0)} ms (first run compiles)`);
      const results = Object.fromEntries(output.trim().split('\n').map((line) => line.split(/: (.*)/s).slice(0, 2) as [string, string]));
      assert.deepEqual(results, {
        'serve kubernetes.default.svc': 'ok',
        'serve localhost': 'ok',
        'serve 127.0.0.1': 'ok',
        'serve ::1': 'ok',
        'client admin': 'ok',
        'identity admin': 'ok',
        'ip sans': 'ok',
        'keypair admin': 'ok',
        'keypair ca': 'ok',
        'sa public from pub': 'ok',
        'sa public from key': 'ok',
        'sa private': 'ok',
        // Why keys are SEC1: a PKCS#8 EC key is unreadable for --service-account-key-file.
        'pkcs8 control public': 'data does not contain any valid RSA or ECDSA public keys',
        'client alice': 'ok',
        'serve alice': 'x509: certificate specifies an incompatible key usage',
        'identity alice': 'ok',
      });
    } finally {
      scratch.cleanup();
    }
  });
});
