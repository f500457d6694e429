/**
 * Frames recorded from moby/spdystream v0.5.1 (the SPDY library kube-apiserver dials kubelets
 * with), written by its Framer as a client opening an exec session: SYN_STREAMs for the error,
 * stdin and stdout streams (one zlib context across the three header blocks), "hello\n" on stdin,
 * stdin's FIN, and PING 1. Generated once with a throwaway Go program; kept as hex.
 */
export const SPDYSTREAM_CLIENT_FRAMES = Buffer.from(
  '80030001000000290000000100000000000078f9e3c6a7c26260606004a7b392a2d4c45c6851c29a0a0a6800000000ffff' +
    '800300010000001700000003000000000000c22e555c92929907000000ffff' +
    '800300010000001900000005000000000000c22ac5565c92925f5a02000000ffff' +
    '000000030000000668656c6c6f0a' +
    '00000003010000008003000600000004' +
    '00000001',
  'hex',
);
